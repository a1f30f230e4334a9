package classify

import (
	"net/url"
	"path"
	"strings"

	"notifio/poll/fetch"

	"notifio/internal/model"
)

// challengeHosts are hosts that only serve bot checks: a redirect there is a
// challenge. Suffix match on whole labels.
var challengeHosts = []string{
	"captcha-delivery.com",                         // DataDome (geo.captcha-delivery.com)
	"challenges.cloudflare.com",                    // Cloudflare challenges and Turnstile
	"perfdrive.com",                                // Radware / ShieldSquare (validate.perfdrive.com)
	"px-cdn.net", "px-cloud.net", "perimeterx.net", // PerimeterX / HUMAN
	"awswaf.com",   // AWS WAF challenge and captcha
	"hcaptcha.com", // hCaptcha
	"geetest.com",  // GeeTest
	"recaptcha.net",
}

func hostIs(host, domain string) bool {
	return host == domain || strings.HasSuffix(host, "."+domain)
}

func isChallengeURL(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	for _, h := range challengeHosts {
		if hostIs(host, h) {
			return true
		}
	}
	// Google's own bot check and reCAPTCHA pages.
	if hostIs(host, "google.com") {
		p := strings.ToLower(u.Path)
		return strings.HasPrefix(p, "/recaptcha/") || strings.HasPrefix(p, "/sorry/")
	}
	return false
}

// loginWords are path segments (extension and case ignored) of login pages.
var loginWords = map[string]bool{
	"login": true, "log-in": true, "log_in": true, "logon": true,
	"signin": true, "sign-in": true, "sign_in": true,
	"anmelden": true, "anmeldung": true, "einloggen": true,
	"auth": true, "oauth": true, "oauth2": true, "authorize": true, "authenticate": true, "authentication": true,
	"sso": true, "saml": true, "cas": true,
}

// loginHostLabels are first host labels of login services (login.example.com).
var loginHostLabels = map[string]bool{"login": true, "signin": true, "sso": true, "auth": true, "accounts": true, "account": true}

// looksLikeLogin reports whether u is a login page: a path segment such as
// /login, /signin, /anmelden, /auth, /sso (also login.php, users/sign_in), or a
// host such as login.example.com or sso.example.com.
func looksLikeLogin(u *url.URL) bool {
	if u == nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if i := strings.IndexByte(host, '.'); i > 0 && loginHostLabels[host[:i]] {
		return true
	}
	for _, seg := range strings.Split(strings.ToLower(u.Path), "/") {
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		if loginWords[seg] {
			return true
		}
		for _, p := range []string{"login", "signin", "sign-in", "anmeld", "einlog"} {
			if strings.HasPrefix(seg, p) {
				return true
			}
		}
	}
	return false
}

func redirectOutcome(r *fetch.RedirectStop) Outcome {
	to := r.Location
	host := ""
	if r.To != nil {
		to = r.To.Redacted()
		host = r.To.Hostname()
	}
	switch r.Why {
	case fetch.StopCrossSite:
		switch {
		case r.To != nil && isChallengeURL(r.To):
			return Outcome{Kind: model.OutcomeChallenge, Signal: "redirect to challenge host " + host,
				Detail: "The site sent us to a bot check at " + host + "."}
		case looksLikeLogin(r.To):
			return Outcome{Kind: model.OutcomeSessionExpired, Signal: "redirect to login page " + clip(host+r.To.Path, 80),
				Detail: "The site sent us to a login page (" + clip(to, 120) + "): the session has probably expired. Log in again in a browser and paste a fresh cookie."}
		}
		if r.From != nil && r.To != nil && strings.EqualFold(r.From.Hostname(), host) {
			// The same host on another port is another server, not another site.
			port := fetch.EffectivePort(r.To)
			return Outcome{Kind: model.OutcomeError, Signal: "redirect to another server on port " + port,
				Detail: "The site redirected to another server of " + host + " (port " + port + "), which was not followed: " + clip(to, 120) + "."}
		}
		return Outcome{Kind: model.OutcomeError, Signal: "redirect to other site " + host,
			Detail: "The site redirected to another site, which was not followed: " + clip(to, 120) + "."}
	case fetch.StopLoop:
		return Outcome{Kind: model.OutcomeError, Signal: "redirect loop", Detail: "The site keeps redirecting in a circle: " + r.String() + "."}
	case fetch.StopTooMany:
		return Outcome{Kind: model.OutcomeError, Signal: "too many redirects", Detail: "The site redirected too many times: " + r.String() + "."}
	case fetch.StopScheme:
		scheme := ""
		if r.To != nil {
			scheme = r.To.Scheme
		}
		return Outcome{Kind: model.OutcomeError, Signal: "redirect to " + scheme + ":// refused", Detail: "The site redirected to something that is not a web page: " + clip(to, 120) + "."}
	case fetch.StopDowngrade:
		return Outcome{Kind: model.OutcomeError, Signal: "redirect from https to http refused", Detail: "The site redirected from a secure to an insecure address, which was not followed: " + clip(to, 120) + "."}
	}
	return Outcome{Kind: model.OutcomeError, Signal: "redirect not followed", Detail: r.String() + "."}
}
