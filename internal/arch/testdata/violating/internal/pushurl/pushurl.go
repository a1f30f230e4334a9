// Package pushurl is a stub for the import rules' own test.
package pushurl
