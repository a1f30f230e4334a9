package browser

import (
	"errors"
	"strings"
	"testing"
)

func TestFindLooksInEachSystemsStandardPlaces(t *testing.T) {
	env := map[string]string{"ProgramFiles": `C:\Program Files`, "ProgramFiles(x86)": `C:\Program Files (x86)`,
		"LocalAppData": `C:\Users\ann\AppData\Local`, "HOME": "/Users/ann"}
	for _, tc := range []struct {
		goos      string
		installed []string // absolute paths that exist
		onPath    []string // names exec.LookPath finds
		want      string   // "" = none found
		hint      string
	}{
		{goos: "linux", onPath: []string{"chromium"}, want: "/usr/bin/chromium"},
		{goos: "linux", onPath: []string{"brave-browser"}, want: "/usr/bin/brave-browser"},
		{goos: "linux", installed: []string{"/snap/bin/chromium"}, want: "/snap/bin/chromium"},
		{goos: "linux", hint: "sudo apt install chromium"},
		{goos: "windows", installed: []string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
			want: `C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
		{goos: "windows", installed: []string{`C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
			want: `C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`},
		{goos: "windows", hint: "Microsoft Edge"},
		{goos: "darwin", installed: []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
			want: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{goos: "darwin", installed: []string{"/Users/ann/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"},
			want: "/Users/ann/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"},
		{goos: "darwin", hint: "google.com/chrome"},
	} {
		t.Run(tc.goos+" "+tc.want, func(t *testing.T) {
			exists := func(p string) bool {
				for _, i := range tc.installed {
					if i == p {
						return true
					}
				}
				return false
			}
			look := func(name string) (string, error) {
				for _, n := range tc.onPath {
					if n == name {
						return "/usr/bin/" + name, nil
					}
				}
				return "", errors.New("not found")
			}
			got, err := find(tc.goos, func(k string) string { return env[k] }, look, exists)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Errorf("find = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			var ni *NotInstalledError
			if !errors.As(err, &ni) || !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), tc.hint) {
				t.Errorf("err = %v, want a NotInstalledError naming %q", err, tc.hint)
			}
		})
	}
}
