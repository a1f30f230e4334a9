package pushurl

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"notifio/internal/model"
)

// Service URLs built from what the user knows about their service (the
// window's small forms): a topic, a bot token and chat ID, two keys. The result
// is checked by CheckServiceURL like a pasted one.

var (
	ntfyTopic     = regexp.MustCompile(`^[-_A-Za-z0-9]{1,64}$`)
	telegramToken = regexp.MustCompile(`^[0-9]+:[-_A-Za-z0-9]+$`)
	telegramChat  = regexp.MustCompile(`^(-?[0-9]+|@[A-Za-z0-9_]{4,})$`)
	pushoverKey   = regexp.MustCompile(`^[A-Za-z0-9]{20,40}$`)
)

// NtfyURL is the URL of an ntfy topic. server "" is ntfy.sh; a server written
// with http:// is reached over plain HTTP (a server at home), anything else over
// HTTPS.
func NtfyURL(server, topic string) (string, error) {
	topic = strings.TrimSpace(topic)
	if !ntfyTopic.MatchString(topic) {
		return "", fmt.Errorf("the ntfy topic %q is not usable: use letters, digits, - and _ only (up to 64), e.g. flats-anna-7x2k; "+
			"anyone who knows the topic can read it, so make it hard to guess", model.SanitizeLine(topic, 40))
	}
	server = strings.TrimRight(strings.TrimSpace(server), "/")
	if server == "" {
		server = "ntfy.sh"
	}
	query := ""
	switch {
	case strings.HasPrefix(strings.ToLower(server), "http://"):
		server, query = server[len("http://"):], "?scheme=http"
	case strings.HasPrefix(strings.ToLower(server), "https://"):
		server = server[len("https://"):]
	}
	u, err := url.Parse("ntfy://" + server)
	if err != nil || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.User != nil {
		return "", fmt.Errorf("the ntfy server %q is not a server name: write it like ntfy.sh or https://ntfy.example.org, or leave it empty for ntfy.sh",
			model.SanitizeLine(server, 60))
	}
	return "ntfy://" + u.Host + "/" + topic + query, nil
}

// TelegramURL is the URL of a Telegram bot writing to one chat.
func TelegramURL(botToken, chatID string) (string, error) {
	botToken, chatID = strings.TrimSpace(botToken), strings.TrimSpace(chatID)
	if !telegramToken.MatchString(botToken) {
		return "", fmt.Errorf("that is not a Telegram bot token: BotFather gives one like 123456789:AAH… (digits, a colon, then letters)")
	}
	if !telegramChat.MatchString(chatID) {
		return "", fmt.Errorf("the chat ID %q is not one: it is a number like 123456789 (-100… for a group) or a channel's @name; "+
			"send /start to your bot, then ask @userinfobot for your ID", model.SanitizeLine(chatID, 40))
	}
	return "telegram://" + botToken + "@telegram?chats=" + url.QueryEscape(chatID), nil
}

// PushoverURL is the URL of a Pushover application token sending to a user
// (or group) key.
func PushoverURL(apiToken, userKey string) (string, error) {
	apiToken, userKey = strings.TrimSpace(apiToken), strings.TrimSpace(userKey)
	if !pushoverKey.MatchString(apiToken) {
		return "", fmt.Errorf("that is not a Pushover API token: create an application on pushover.net and copy its API token (30 letters and digits)")
	}
	if !pushoverKey.MatchString(userKey) {
		return "", fmt.Errorf("that is not a Pushover user key: it is on your pushover.net dashboard (30 letters and digits)")
	}
	return "pushover://shoutrrr:" + apiToken + "@" + userKey + "/", nil
}
