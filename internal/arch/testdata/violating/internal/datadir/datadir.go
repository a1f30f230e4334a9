// Package datadir is a stub for the import rules' own test.
package datadir
