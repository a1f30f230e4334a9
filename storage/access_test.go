package storage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Item 11: the wording, whoever runs the test, and the open error injected.
func TestAccessWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := accessWords(path, 0o600, 1001, true, 1000)
	for _, want := range []string{path, "belongs to another user (uid 1001)", "-rw-------", "sudo chown 1000 " + path} {
		if !strings.Contains(other, want) {
			t.Errorf("%q lacks %q", other, want)
		}
	}
	mine := accessWords(path, 0, 1000, true, 1000)
	if !strings.Contains(mine, "----------") || !strings.Contains(mine, "chmod 600 "+path) || strings.Contains(mine, "another user") {
		t.Errorf("own file: %q", mine)
	}
	d := &DB{dir: filepath.Dir(path), path: path}
	err := d.openError(&fs.PathError{Op: "open", Path: path, Err: syscall.EACCES})
	if !errors.Is(err, ErrFileAccess) || errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), path) {
		t.Errorf("injected EACCES: %v", err)
	}
	if err := d.openError(&fs.PathError{Op: "open", Path: path, Err: syscall.EIO}); errors.Is(err, ErrFileAccess) {
		t.Errorf("EIO worded as access: %v", err)
	}
}
