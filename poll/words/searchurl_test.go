package words

import (
	"testing"
)

func TestCheckSearchURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{" https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html\n", "https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html", true},
		{"http://localhost:8080/results", "http://localhost:8080/results", true},
		{"HTTPS://EXAMPLE.COM/x", "HTTPS://EXAMPLE.COM/x", true},
		{"www.wg-gesucht.de/wg-zimmer", "", false},
		{"javascript:alert(1)", "", false},
		{"file:///etc/passwd", "", false},
		{"https://", "", false},
		{"https://exa mple.com/", "", false},
		{"", "", false},
	} {
		got, err := CheckSearchURL(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CheckSearchURL(%q) = %q, %v", tc.in, got, err)
		}
	}
}
