// Package tray is a stub for the import rules' own test.
package tray
