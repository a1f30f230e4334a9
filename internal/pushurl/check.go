// Package pushurl is what the user gives for a push channel, checked: the
// service URL built from a form's fields (a topic, a bot token and chat ID,
// two keys) or pasted whole, checked against what shoutrrr knows without
// sending anything, and masked for lists and logs. It imports only the nouns,
// so the window checks a form without the delivery code.
package pushurl

import (
	"fmt"
	"net"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/nicholas-fedor/shoutrrr/pkg/format"
	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/gotify"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"notifio/internal/model"
)

// What shoutrrr can check of a service URL without sending, checked when the
// channel is added: shoutrrr's Locate parses the URL, but a Gotify URL
// without its token (gotify://host/) or with a token of the wrong shape
// passes it and fails only at the first push.

// pushSchemes are the services offered by name in errors and help; shoutrrr
// knows more, and every scheme it knows is accepted.
var pushSchemes = []string{"ntfy", "telegram", "pushover", "gotify", "discord", "slack", "matrix", "generic"}

// CheckServiceURL checks a push service URL the user gave and returns its
// scheme, or an error that says what to fix (an unknown scheme lists the known
// ones). It contacts nothing.
func CheckServiceURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "", fmt.Errorf("%q is not a service URL: write it like ntfy://ntfy.sh/your-topic (services: %s)",
			model.SanitizeLine(MaskURL(raw), 80), strings.Join(pushSchemes, ", "))
	}
	scheme := strings.ToLower(strings.SplitN(u.Scheme, "+", 2)[0])
	r, _ := router.New(nil)
	if !slices.Contains(r.ListServices(), scheme) {
		return "", fmt.Errorf("unknown push service %q: use one of %s (e.g. ntfy://ntfy.sh/your-topic)",
			model.SanitizeLine(scheme, 30), strings.Join(pushSchemes, ", "))
	}
	svc, err := r.Locate(raw)
	if err != nil {
		return "", fmt.Errorf("the %s URL is not complete or not valid (%v): see the service's URL format in Notifio's README", scheme, RedactURL(err.Error(), raw))
	}
	if err := checkServiceConfig(scheme, svc); err != nil {
		return "", err
	}
	return scheme, nil
}

// DisplayURL is the service URL with everything that may be a secret masked
// (user info, path and query values): for lists and logs.
func DisplayURL(raw string) string { return MaskURL(raw) }

func MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "(not a URL)"
	}
	out := u.Scheme + "://"
	if u.User != nil {
		out += "***@"
	}
	out += u.Host
	if strings.Trim(u.Path, "/") != "" {
		out += "/***"
	}
	if u.RawQuery != "" {
		keys := make([]string, 0)
		for k := range u.Query() {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out += "?" + strings.Join(keys, "=…&") + "=…"
	}
	return out
}

// urlSecrets are the parts of a service URL that may be secret: user info,
// path segments, query values, and the host (Discord and Pushover keep tokens
// there). Short ones are left alone (see Redact).
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return []string{raw}
	}
	out := []string{raw}
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	out = append(out, u.Hostname())
	out = append(out, strings.Split(u.Path, "/")...)
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}

// RedactURL removes every secret part of raw from s.
func RedactURL(s, raw string) string {
	parts := urlSecrets(raw)
	sort.Slice(parts, func(i, j int) bool { return len(parts[i]) > len(parts[j]) })
	for _, p := range parts {
		if ip := net.ParseIP(p); ip != nil || p == "localhost" {
			continue // an address is not a secret, and it helps the user
		}
		s = Redact(s, p)
	}
	return s
}

// checkServiceConfig reports a required part of the service's configuration
// that the URL left empty, and a Gotify token that is not one, in words.
func checkServiceConfig(scheme string, svc types.Service) error {
	if missing := missingRequired(svc); missing != "" {
		return fmt.Errorf("the %s URL has no %s: see the service's URL format in Notifio's README", scheme, missing)
	}
	if g, ok := svc.(*gotify.Service); ok && g.Config != nil && !(&gotify.DefaultValidator{}).ValidateToken(g.Config.Token) {
		return fmt.Errorf("the Gotify URL's token (%d characters) is not a Gotify application token, which is %d characters starting with A: "+
			"copy it from Gotify › Apps and write gotify://your-server/TOKEN", len(g.Config.Token), gotify.TokenLength)
	}
	return nil
}

// missingRequired is the description of the first field shoutrrr marks
// required that is empty in svc's configuration, "" when none is.
func missingRequired(svc types.Service) (missing string) {
	defer func() {
		if recover() != nil { // a service without a Config struct: nothing to check
			missing = ""
		}
	}()
	v := reflect.Indirect(reflect.ValueOf(format.GetServiceConfig(svc)))
	if v.Kind() != reflect.Struct {
		return ""
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if _, required := f.Tag.Lookup("required"); required && v.Field(i).IsZero() {
			if desc := f.Tag.Get("desc"); desc != "" {
				return strings.ToLower(desc[:1]) + desc[1:]
			}
			return strings.ToLower(f.Name)
		}
	}
	return ""
}

// Redact removes secret from s. Errors from go-mail never contain the password;
// this is a second line of defence for what reaches logs and the outbox. Very
// short secrets are left alone: replacing every "y" would destroy the message
// and protect nothing.
func Redact(s, secret string) string {
	if len(secret) < 6 {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}
