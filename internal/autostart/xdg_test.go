//go:build !windows && !darwin

package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOnStatusOff(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	path := filepath.Join(cfg, "autostart", "notifio.desktop")

	st, err := Get()
	if err != nil || st.On || st.Where != path {
		t.Fatalf("before: %+v, %v; want off at %s", st, err, path)
	}
	args, err := Command("/opt/notifio/notifio", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Enable(args); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"[Desktop Entry]", "Type=Application", "Name=Notifio", "Exec=/opt/notifio/notifio --hidden"} {
		if !strings.Contains(string(b), line+"\n") {
			t.Errorf("the entry lacks %q:\n%s", line, b)
		}
	}
	st, err = Get()
	if err != nil || !st.On || st.Command != "/opt/notifio/notifio --hidden" {
		t.Fatalf("after on: %+v, %v", st, err)
	}
	if err := Disable(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the entry is still there after off: %v", err)
	}
	if st, _ := Get(); st.On {
		t.Fatalf("after off: %+v", st)
	}
	if err := Disable(); err != nil {
		t.Fatalf("off twice: %v", err)
	}
}

func TestCommandIsAbsoluteWithData(t *testing.T) {
	t.Chdir(t.TempDir())
	wd, _ := os.Getwd()
	args, err := Command("bin/notifio", "my data")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(wd, "bin/notifio"), "--hidden", "--data", filepath.Join(wd, "my data")}
	if strings.Join(args, "|") != strings.Join(want, "|") {
		t.Fatalf("Command = %q, want %q", args, want)
	}
	if _, err := Command("", ""); err == nil {
		t.Fatal("an unknown program path was accepted")
	}
}

func TestExecLineQuotes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"/usr/bin/notifio", "--hidden"}, `/usr/bin/notifio --hidden`},
		{[]string{"/home/a b/notifio", "--hidden"}, `"/home/a b/notifio" --hidden`},
		{[]string{"/x/notifio", "--data", `/d/100% "$x"`}, `/x/notifio --data "/d/100%% \\"\\$x\\""`},
		{[]string{"/x/back\\slash"}, `"/x/back\\\\slash"`},
	} {
		if got := execLine(tc.args); got != tc.want {
			t.Errorf("execLine(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

func TestSwitchedOffEntryIsOff(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	if err := os.MkdirAll(filepath.Join(cfg, "autostart"), 0o755); err != nil {
		t.Fatal(err)
	}
	entry := "[Desktop Entry]\nType=Application\nExec=/x/notifio --hidden\nHidden=true\n"
	if err := os.WriteFile(filepath.Join(cfg, "autostart", "notifio.desktop"), []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := Get(); err != nil || st.On {
		t.Fatalf("a Hidden=true entry reads %+v, %v; want off", st, err)
	}
}

func TestRelativeConfigHomeFallsBackToHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "relative/dir")
	p, err := file()
	if err != nil || p != filepath.Join(home, ".config", "autostart", "notifio.desktop") {
		t.Fatalf("file() = %s, %v", p, err)
	}
}
