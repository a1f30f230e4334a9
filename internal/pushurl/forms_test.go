package pushurl

import (
	"strings"
	"testing"
)

func TestServiceURLsFromForms(t *testing.T) {
	const po, user = "azGDORePK8gMaC0QOYAMyEEuzJnyUi", "uQiRzpo4DXghDmr9QzzfQu27cmVRsG"
	for _, tc := range []struct {
		name, got, want string
		err             error
	}{
		{"ntfy.sh", must2(NtfyURL("", "flats-anna")), "ntfy://ntfy.sh/flats-anna", nil},
		{"own https", must2(NtfyURL("https://ntfy.example.org/", "flats")), "ntfy://ntfy.example.org/flats", nil},
		{"home http", must2(NtfyURL("http://192.168.1.5:8080", "flats")), "ntfy://192.168.1.5:8080/flats?scheme=http", nil},
		{"telegram", must2(TelegramURL(" 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw ", "-1001234567")),
			"telegram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw@telegram?chats=-1001234567", nil},
		{"pushover", must2(PushoverURL(po, user)), "pushover://shoutrrr:" + po + "@" + user + "/", nil},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
			continue
		}
		if _, err := CheckServiceURL(tc.got); err != nil {
			t.Errorf("%s: the built URL is refused: %v", tc.name, err)
		}
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(NtfyURL("", "my flats")), "letters, digits, - and _ only"},
		{second(NtfyURL("ntfy.sh/x", "flats")), "is not a server name"},
		{second(TelegramURL("hello", "1")), "not a Telegram bot token"},
		{second(TelegramURL("1:abc", "anna")), "is not one"},
		{second(PushoverURL("short", user)), "not a Pushover API token"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
}

func must2(s string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

func second(_ string, err error) error { return err }
