// Package arch holds no code: its test keeps the import rules of
// docs/ARCHITECTURE.md true.
package arch
