// Package autostart is a stub for the import rules' own test.
package autostart
