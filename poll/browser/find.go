package browser

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// ErrNotInstalled is wrapped by the error Find returns when none of the browsers
// Notifio can drive (Chrome, Chromium, Edge, Brave) is installed.
var ErrNotInstalled = errors.New("browser: no Chrome, Chromium, Edge or Brave found")

// NotInstalledError says which browser to install, for the user's system.
type NotInstalledError struct {
	// Hint says what to install, e.g. "Install Chromium: sudo apt install chromium".
	Hint string
}

func (e *NotInstalledError) Error() string {
	return "no browser that Notifio can use is installed (Chrome, Chromium, Edge or Brave). " + e.Hint +
		" Until then Notifio reads pages without a browser."
}

// Unwrap makes errors.Is(err, ErrNotInstalled) true.
func (e *NotInstalledError) Unwrap() error { return ErrNotInstalled }

// Find returns the path of the user's own Chromium-based browser: the first of
// Chrome, Chromium, Edge and Brave found in their standard places on this
// system (or on PATH). It never downloads one.
func Find() (string, error) {
	return find(runtime.GOOS, os.Getenv, exec.LookPath, fileExists)
}

// find is Find with the system's lookups passed in, so that every system's list
// is checked on any machine.
func find(goos string, getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool) (string, error) {
	for _, c := range candidates(goos, getenv) {
		if strings.ContainsAny(c, `/\`) { // a path, not a name to look up on PATH
			if exists(c) {
				return c, nil
			}
			continue
		}
		if p, err := lookPath(c); err == nil {
			return p, nil
		}
	}
	return "", &NotInstalledError{Hint: installHint(goos)}
}

// candidates are the names and paths tried, in order: the browsers people
// install on purpose first, Edge (present on every Windows) last there.
func candidates(goos string, getenv func(string) string) []string {
	switch goos {
	case "windows":
		var out []string
		for _, root := range []string{getenv("ProgramFiles"), getenv("ProgramFiles(x86)"), getenv("LocalAppData")} {
			if root == "" {
				continue
			}
			// Joined by hand: the list is the same whichever system reads it.
			out = append(out,
				root+`\Google\Chrome\Application\chrome.exe`,
				root+`\Chromium\Application\chrome.exe`,
				root+`\BraveSoftware\Brave-Browser\Application\brave.exe`,
			)
		}
		out = append(out, "chrome.exe", "brave.exe")
		for _, root := range []string{getenv("ProgramFiles(x86)"), getenv("ProgramFiles")} {
			if root != "" {
				out = append(out, root+`\Microsoft\Edge\Application\msedge.exe`)
			}
		}
		return append(out, "msedge.exe")
	case "darwin":
		var out []string
		for _, root := range []string{"/Applications", getenv("HOME") + "/Applications"} {
			out = append(out,
				root+"/Google Chrome.app/Contents/MacOS/Google Chrome",
				root+"/Chromium.app/Contents/MacOS/Chromium",
				root+"/Brave Browser.app/Contents/MacOS/Brave Browser",
				root+"/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
			)
		}
		return out
	}
	return []string{
		"google-chrome", "google-chrome-stable", "chromium", "chromium-browser",
		"brave-browser", "brave", "microsoft-edge", "microsoft-edge-stable",
		"/usr/bin/chromium", "/usr/bin/google-chrome", "/snap/bin/chromium",
		"/var/lib/flatpak/exports/bin/com.google.Chrome", "/var/lib/flatpak/exports/bin/org.chromium.Chromium",
	}
}

// installHint says what to install on this system, in the user's words.
func installHint(goos string) string {
	switch goos {
	case "windows":
		return "Microsoft Edge normally comes with Windows; reinstall it, or install Google Chrome from google.com/chrome."
	case "darwin":
		return "Install Google Chrome (google.com/chrome) or Chromium into Applications."
	}
	return fmt.Sprintf("Install Chromium (Debian/Ubuntu: %s) or Google Chrome.", "sudo apt install chromium")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
