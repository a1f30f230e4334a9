// Package cli is a stub for the import rules' own test.
package cli
