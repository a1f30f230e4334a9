package classify

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"

	"notifio/internal/model"
)

// finding is one piece of page evidence and what it means.
type finding struct {
	kind   model.Outcome
	signal string
	detail string
}

func (f *finding) outcome() Outcome { return Outcome{Kind: f.kind, Signal: f.signal, Detail: f.detail} }

// Details shown to the user, by vendor.
const (
	detailCloudflareChallenge = "Cloudflare is showing a browser check instead of the page; opening the search in a browser may pass it."
	detailCloudflareDenied    = "Cloudflare blocks this request (a firewall rule of the site); a browser check will not help."
	detailCloudflareRate      = "Cloudflare says we are sending too many requests (error 1015)."
	detailAWS                 = "AWS WAF is asking for a browser check (challenge or captcha) instead of the page."
	detailDataDomeChallenge   = "DataDome is showing a captcha instead of the page."
	detailDataDomeDenied      = "DataDome has blocked this client (t=bv: banned visitor); solving a captcha will not help."
	detailPerimeterX          = "PerimeterX (HUMAN) is showing its press-and-hold check instead of the page."
	detailAkamaiDenied        = "Akamai refuses this request (Access Denied)."
	detailAkamaiChallenge     = "Akamai Bot Manager is running a browser check instead of the page."
	detailIncapsulaDenied     = "Imperva Incapsula blocked this request (Request unsuccessful)."
	detailIncapsulaChallenge  = "Imperva Incapsula is showing an interstitial check instead of the page."
	detailDistilDenied        = "Distil Networks blocked this request (Access To Website Blocked)."
	detailRobotCheck          = "The site shows a robot check instead of the results."
	detailCaptcha             = "The site shows a captcha instead of the results."
	detailBlocked             = "The site says this client has been blocked."
)

// page is the evidence found in one body.
type page struct {
	// The first finding of each class, in document order.
	denied, rateLimited, challenge, widget *finding

	title     string // first <title> outside svg/math, whitespace folded, as written
	titleSeen bool
	headings  []string // <h1> texts, folded, lowercase

	cfErrorCode     string // text of the Cloudflare error-code element
	cfPage          bool   // Cloudflare error-page scaffolding seen
	akamaiRef       string
	akamaiPerm      bool
	incapIframe     bool // an iframe to /_Incapsula_Resource
	incapIframeText bool // "Request unsuccessful … incident ID" as an iframe's fallback text
	incapText       bool // the same sentence elsewhere
	inIframe        bool // scanning an iframe's fallback content
	ddSeen          bool
	ddT             string

	// A captcha widget (reCAPTCHA, hCaptcha, Turnstile) is evidence of a
	// challenge only when it is not just guarding a form the page offers
	// (contact, newsletter, login): captcha is its finding, formDepth and
	// formFields follow the form being read, captchaInForm and captchaBare count
	// the widgets inside such forms and elsewhere.
	captcha                    *finding
	formDepth, formCaptchas    int
	formFields                 bool
	captchaInForm, captchaBare int

	scratch []byte
}

func (p *page) set(slot **finding, k model.Outcome, signal, detail string) {
	if *slot == nil {
		*slot = &finding{kind: k, signal: signal, detail: detail}
	}
}
func (p *page) deny(signal, detail string) { p.set(&p.denied, model.OutcomeDenied, signal, detail) }
func (p *page) chal(signal, detail string) {
	p.set(&p.challenge, model.OutcomeChallenge, signal, detail)
}
func (p *page) widg(signal, detail string) { p.set(&p.widget, model.OutcomeChallenge, signal, detail) }

// scanPage parses a body nobody parsed yet (a test, a page read without
// extraction) and collects the evidence as scanTree does: one scanner for the
// vendor rules.
func scanPage(body []byte, contentType string) *page {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil { // html.Parse fails only when reading fails; a byte slice does not
		doc = &html.Node{Type: html.DocumentNode}
	}
	return scanTree(doc, body, contentType)
}

// attrs are the attributes the rules look at.
type attrs struct {
	id, class, src, action, name, translate, typ string
}

// element applies the attribute rules to one start tag. It reports whether the
// element is Cloudflare's error-code holder, whose text is read next.
func (p *page) element(tag string, a *attrs) (errorCode bool) {
	switch strings.ToLower(a.id) {
	case "challenge-form":
		p.chal("body: Cloudflare challenge form", detailCloudflareChallenge)
	case "challenge-running", "challenge-stage", "challenge-body-text", "challenge-error-title",
		"challenge-error-text", "challenge-success-text", "cf-challenge-running", "cf-please-wait", "cf-spinner-please-wait":
		p.chal("body: Cloudflare #"+a.id, detailCloudflareChallenge)
	case "px-captcha":
		p.chal("body: #px-captcha", detailPerimeterX)
	case "sec-if-cpt-container", "sec-cpt-if":
		p.chal("body: Akamai #"+a.id, detailAkamaiChallenge)
	case "cf-error-details", "cf-wrapper":
		p.cfPage = true
	}
	if a.class != "" {
		errorCode = p.classes(a.class)
	}
	switch a.name {
	case "jschl_vc", "jschl_answer":
		p.chal("body: Cloudflare jschl form", detailCloudflareChallenge)
	case "cf_captcha_kind":
		p.chal("body: Cloudflare captcha form", detailCloudflareChallenge)
	}
	switch a.translate {
	case "block_headline", "blocked_why_headline", "error":
		p.cfPage = true
	case "checking_browser":
		p.chal("body: Cloudflare \"Checking your browser\"", detailCloudflareChallenge)
	}
	if a.src != "" && (tag == "script" || tag == "iframe") {
		p.source(tag, a.src)
	}
	if a.action != "" && tag == "form" {
		p.formAction(a.action)
	}
	p.formElement(tag, a.typ)
	return errorCode
}

// classes applies the class rules; it reports whether one marks Cloudflare's
// error-code holder.
func (p *page) classes(class string) (errorCode bool) {
	for _, c := range strings.Fields(strings.ToLower(class)) {
		switch {
		case c == "cf-browser-verification" || c == "cf-im-under-attack":
			p.chal("body: Cloudflare browser verification", detailCloudflareChallenge)
		case c == "cf-error-code":
			errorCode = true
		case c == "cf-wrapper" || c == "cf-error-overview" || c == "cf-error-details":
			p.cfPage = true
		case c == "cf-turnstile":
			p.captchaWidget("body: Turnstile widget")
		case c == "g-recaptcha":
			p.captchaWidget("body: g-recaptcha widget")
		case c == "h-captcha":
			p.captchaWidget("body: h-captcha widget")
		case strings.HasPrefix(c, "geetest_"):
			p.widg("body: GeeTest captcha", detailCaptcha)
		}
	}
	return errorCode
}

// captchaWidget records a captcha widget element, in or outside a form.
func (p *page) captchaWidget(signal string) {
	p.set(&p.captcha, model.OutcomeChallenge, signal, detailCaptcha)
	if p.formDepth > 0 {
		p.formCaptchas++
	} else {
		p.captchaBare++
	}
}

// formElement follows forms and the fields a user fills in them.
func (p *page) formElement(tag, typ string) {
	switch tag {
	case "form":
		if p.formDepth == 0 {
			p.formCaptchas, p.formFields = 0, false
		}
		p.formDepth++
	case "textarea", "select":
		p.formFields = p.formFields || p.formDepth > 0
	case "input":
		switch strings.ToLower(strings.TrimSpace(typ)) {
		case "", "text", "email", "tel", "search", "password", "number", "url", "date":
			p.formFields = p.formFields || p.formDepth > 0
		}
	}
}

// formEnd closes a form: its captcha widgets guard a form the user fills in
// (fields) or are the page's check (none: a lone widget and a button).
func (p *page) formEnd() {
	if p.formDepth == 0 {
		return
	}
	p.formDepth--
	if p.formDepth > 0 {
		return
	}
	if p.formFields {
		p.captchaInForm += p.formCaptchas
	} else {
		p.captchaBare += p.formCaptchas
	}
	p.formCaptchas = 0
}

var pxCaptchaPath = regexp.MustCompile(`(?i)^/px[a-z0-9]+/captcha/`)

// source applies the rules for a script or iframe src: the bot walls'
// first, then the captcha vendors (the first rule that matches decides).
func (p *page) source(tag, src string) {
	u, err := url.Parse(strings.TrimSpace(src))
	if err != nil {
		return
	}
	host := strings.ToLower(u.Hostname())
	if !p.wallSource(tag, u, host) {
		p.captchaSource(tag, host, u.Path)
	}
}

// wallSource applies the rules for Cloudflare, DataDome, Incapsula and
// Akamai; it reports whether one matched.
func (p *page) wallSource(tag string, u *url.URL, host string) bool {
	path := u.Path
	lpath := strings.ToLower(path)
	switch {
	case strings.Contains(path, "/cdn-cgi/challenge-platform/"):
		p.challengePlatform(path, tag)
	case hostIs(host, "challenges.cloudflare.com"):
		if strings.Contains(lpath, "/turnstile/") {
			p.set(&p.captcha, model.OutcomeChallenge, "body: Turnstile widget", detailCaptcha)
		} else {
			p.chal("body: challenges.cloudflare.com "+tag, detailCloudflareChallenge)
		}
	case hostIs(host, "captcha-delivery.com"):
		p.ddSeen = true
		if t := u.Query().Get("t"); t != "" && p.ddT == "" {
			p.ddT = t
		}
	case strings.Contains(lpath, "/_incapsula_resource"):
		if tag == "iframe" {
			p.incapIframe = true
		} else {
			p.widg("body: Incapsula interstitial script", detailIncapsulaChallenge)
		}
	case strings.Contains(lpath, "/_sec/cp_challenge/"):
		p.chal("body: Akamai /_sec/cp_challenge/", detailAkamaiChallenge)
	default:
		return false
	}
	return true
}

// captchaSource applies the rules for PerimeterX, AWS WAF, GeeTest,
// reCAPTCHA, hCaptcha and Distil.
func (p *page) captchaSource(tag, host, path string) {
	lpath := strings.ToLower(path)
	switch {
	case hostIs(host, "captcha.px-cdn.net") || hostIs(host, "captcha.px-cloud.net") || pxCaptchaPath.MatchString(path):
		p.chal("body: PerimeterX captcha script", detailPerimeterX)
	case hostIs(host, "awswaf.com") && (strings.HasSuffix(lpath, "/challenge.js") || strings.HasSuffix(lpath, "/challenge.compact.js") || strings.HasSuffix(lpath, "/captcha.js")):
		p.widg("body: AWS WAF challenge.js", detailAWS)
	case hostIs(host, "geetest.com"):
		p.widg("body: GeeTest captcha", detailCaptcha)
	case (hostIs(host, "google.com") || hostIs(host, "gstatic.com") || hostIs(host, "recaptcha.net")) && strings.Contains(lpath, "/recaptcha/"):
		p.set(&p.captcha, model.OutcomeChallenge, "body: reCAPTCHA script", detailCaptcha)
	case hostIs(host, "hcaptcha.com"):
		p.set(&p.captcha, model.OutcomeChallenge, "body: hCaptcha script", detailCaptcha)
	case strings.Contains(lpath, "/distil_r_blocked"):
		p.deny("body: Distil block "+tag, detailDistilDenied)
	case strings.Contains(lpath, "/distil_r_captcha"):
		p.chal("body: Distil captcha "+tag, detailCaptcha)
	}
}

// challengePlatform judges a /cdn-cgi/challenge-platform/ path. Cloudflare injects
// its JS-detection script (…/scripts/jsd/main.js) into normal pages: presence,
// not evidence. Every other path there (orchestrate/chl_page, managed, jsch,
// captcha, turnstile iframes) is served only on challenges.
func (p *page) challengePlatform(path, where string) {
	if strings.Contains(path, "/scripts/") {
		return
	}
	p.chal("body: /cdn-cgi/challenge-platform/ "+where, detailCloudflareChallenge)
}

func (p *page) formAction(action string) {
	for _, m := range []string{"__cf_chl_f_tk=", "__cf_chl_jschl_tk__=", "__cf_chl_captcha_tk__=", "__cf_chl_tk=", "/cdn-cgi/l/chk_jschl", "/cdn-cgi/l/chk_captcha"} {
		if strings.Contains(action, m) {
			p.chal("body: Cloudflare challenge form", detailCloudflareChallenge)
			return
		}
	}
	if strings.Contains(action, "/cdn-cgi/challenge-platform/") {
		p.challengePlatform(action, "form")
	}
}

var (
	cfPlatform = []byte("/cdn-cgi/challenge-platform/")
	ddTField   = regexp.MustCompile(`['"]t['"]\s*:\s*['"]([A-Za-z0-9_]+)['"]`)
)

// script applies the rules for inline script text: identifiers that only
// challenge pages define.
func (p *page) script(b []byte) {
	if containsIdent(b, "_cf_chl_opt") {
		p.chal("body: _cf_chl_opt", detailCloudflareChallenge)
	}
	for rest := b; ; {
		i := bytes.Index(rest, cfPlatform)
		if i < 0 {
			break
		}
		end := i + len(cfPlatform)
		for end < len(rest) && end-i < 300 && !bytes.ContainsRune([]byte("'\"` \n\r\t)"), rune(rest[end])) {
			end++
		}
		p.challengePlatform(string(rest[i:end]), "script")
		rest = rest[end:]
	}
	if bytes.Contains(b, []byte("captcha-delivery.com")) {
		p.ddSeen = true
		if m := ddTField.FindSubmatch(b); m != nil && p.ddT == "" {
			p.ddT = string(m[1])
		}
	}
	if bytes.Contains(b, []byte("___utmvc")) && bytes.Contains(b, []byte("incap_ses")) {
		// Incapsula's old JS challenge: it reads the incap_ses cookies and sets
		// ___utmvc, then reloads; normal pages never carry it inline.
		p.chal("body: Incapsula ___utmvc cookie script", detailIncapsulaChallenge)
	}
	if containsIdent(b, "gokuProps") {
		p.chal("body: AWS WAF gokuProps", detailAWS)
	}
	if bytes.Contains(b, []byte("initGeetest")) {
		p.widg("body: GeeTest captcha", detailCaptcha)
	}
}

// containsIdent reports whether the JavaScript identifier id occurs in b as a whole
// identifier (not as part of a longer one).
func containsIdent(b []byte, id string) bool {
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte(id))
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(id)
		if (start == 0 || !isIdent(b[start-1])) && (end == len(b) || !isIdent(b[end])) {
			return true
		}
		off = end
	}
}

// text applies the rules for visible text nodes (and iframe fallback text).
func (p *page) text(b []byte) {
	if len(b) > 8<<10 {
		return // long text is content, not a block page's sentence
	}
	l := p.lower(b)
	if i := bytes.Index(l, []byte("reference #")); i >= 0 && p.akamaiRef == "" {
		ref := l[i+len("reference #"):]
		n := 0
		for n < len(ref) && n < 64 && (ref[n] == '.' || ref[n] >= '0' && ref[n] <= '9' || ref[n] >= 'a' && ref[n] <= 'f') {
			n++
		}
		if n > 0 {
			p.akamaiRef = string(b[i+len("reference #") : i+len("reference #")+n])
		}
	}
	if bytes.Contains(l, []byte("you don't have permission to access")) || bytes.Contains(l, []byte("you do not have permission to access")) {
		p.akamaiPerm = true
	}
	if bytes.Contains(l, []byte("request unsuccessful")) && bytes.Contains(l, []byte("incident id")) {
		if p.inIframe {
			p.incapIframeText = true
		} else {
			p.incapText = true
		}
	}
}

// lower returns an ASCII-lowercased copy of b in a reused buffer.
func (p *page) lower(b []byte) []byte {
	p.scratch = append(p.scratch[:0], b...)
	for i, c := range p.scratch {
		if 'A' <= c && c <= 'Z' {
			p.scratch[i] = c + ('a' - 'A')
		}
	}
	return p.scratch
}

// Phrases of robot-check titles and headings (lowercase, "…" written "...").
var (
	robotPrefixes = []string{"just a moment", "nur einen moment", "un instant", "un momento", "please wait... | cloudflare", "attention required! | cloudflare"}
	robotPhrases  = []string{
		"kein roboter", "not a robot", "are you a robot", "are you human", "robot check",
		"pardon our interruption", "access to this page has been denied", "human verification",
		"verify you are human", "verifying you are human", "checking your browser", "ddos-guard",
	}
)

func isRobotCheck(l string) bool {
	for _, pfx := range robotPrefixes {
		if strings.HasPrefix(l, pfx) {
			return true
		}
	}
	for _, ph := range robotPhrases {
		if strings.Contains(l, ph) {
			return true
		}
	}
	return false
}

func (p *page) checkTitle() {
	l := normalize(p.title)
	if l == "" {
		return
	}
	if strings.Contains(l, "cloudflare") {
		p.cfPage = true
	}
	if strings.Contains(l, "used cloudflare to restrict access") {
		return // a denial (or 1015), judged in finish once the error code is known
	}
	if isRobotCheck(l) {
		p.chal("title: "+clip(p.title, 80), detailRobotCheck)
	} else if strings.Contains(l, "captcha") {
		p.widg("title: "+clip(p.title, 80), detailCaptcha)
	}
}

func (p *page) addHeading(s string) {
	s = fold(s)
	if s == "" || len(p.headings) >= 16 {
		return
	}
	l := normalize(s)
	p.headings = append(p.headings, l)
	if l == "sorry, you have been blocked" || l == "you have been blocked" || l == "access to website blocked" {
		p.deny("body: \""+clip(s, 60)+"\"", detailBlocked)
		return
	}
	if isRobotCheck(l) {
		p.chal("heading: "+clip(s, 80), detailRobotCheck)
	}
}

var (
	cfDenyCodes  = map[string]bool{"1005": true, "1006": true, "1007": true, "1008": true, "1009": true, "1010": true, "1012": true, "1020": true}
	cfHeadingErr = regexp.MustCompile(`^error\s*(\d{4})\b`)
)

// finish judges the evidence that needs the whole page.
func (p *page) finish() {
	p.formEnd() // a form left open at the end is judged as it stands
	p.formDepth = 0
	if p.captcha != nil && (p.captchaBare > 0 || p.captchaInForm == 0) {
		// A widget of its own, or a captcha script with no widget in a form:
		// evidence (where widgets count). Widgets only in forms are not.
		p.widg(p.captcha.signal, p.captcha.detail)
	}
	p.finishCloudflare()
	p.finishAkamai()
	p.finishIncapsula()
	p.finishDataDome()
}

// finishCloudflare judges Cloudflare's error pages by their error code (in
// the page or its headline) and its "restrict access" title.
func (p *page) finishCloudflare() {
	code := p.cfErrorCode
	if code == "" && p.cfPage {
		for _, h := range p.headings {
			if m := cfHeadingErr.FindStringSubmatch(h); m != nil {
				code = m[1]
				break
			}
		}
	}
	switch {
	case code == "1015":
		p.set(&p.rateLimited, model.OutcomeRateLimited, "body: Cloudflare error 1015", detailCloudflareRate)
	case cfDenyCodes[code]:
		p.deny("body: Cloudflare error "+code, detailCloudflareDenied)
	case strings.Contains(normalize(p.title), "used cloudflare to restrict access"):
		p.deny("title: "+clip(p.title, 80), detailCloudflareDenied)
	}
	// Cloudflare's block page: put its error code before the headline when both are there.
	if p.denied != nil && cfDenyCodes[code] {
		p.denied = &finding{kind: model.OutcomeDenied, signal: "body: Cloudflare error " + code, detail: detailCloudflareDenied}
	}
}

// finishAkamai judges Akamai's "Access Denied" page: the title or a heading,
// with its reference number or its permission text.
func (p *page) finishAkamai() {
	akamaiTitle := normalize(p.title) == "access denied"
	for _, h := range p.headings {
		akamaiTitle = akamaiTitle || h == "access denied"
	}
	if akamaiTitle && (p.akamaiRef != "" || p.akamaiPerm) {
		sig := "body: Access Denied"
		if p.akamaiRef != "" {
			sig += ", Reference #" + clip(p.akamaiRef, 48)
		}
		p.deny(sig, detailAkamaiDenied)
	}
}

// finishIncapsula judges Incapsula's interstitial iframe and its refusal.
func (p *page) finishIncapsula() {
	switch {
	case p.incapIframeText || (p.incapIframe && p.incapText):
		p.deny("body: Incapsula \"Request unsuccessful\" (incident ID)", detailIncapsulaDenied)
	case p.incapIframe:
		p.chal("body: Incapsula interstitial iframe", detailIncapsulaChallenge)
	}
}

// finishDataDome judges DataDome's captcha-delivery.com by its t parameter:
// bv is a block, the others a challenge.
func (p *page) finishDataDome() {
	if !p.ddSeen {
		return
	}
	switch p.ddT {
	case "bv":
		p.deny("body: captcha-delivery.com (t=bv)", detailDataDomeDenied)
	case "":
		p.chal("body: captcha-delivery.com", detailDataDomeChallenge)
	default:
		p.chal("body: captcha-delivery.com (t="+clip(p.ddT, 12)+")", detailDataDomeChallenge)
	}
}

// scanJSON handles DataDome's answer to non-HTML requests:
// {"url":"https://geo.captcha-delivery.com/captcha/?…&t=fe…"}.
func (p *page) scanJSON(b []byte) {
	if !bytes.Contains(b, []byte("captcha-delivery.com")) {
		return
	}
	var v struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(b, &v) != nil {
		return
	}
	if u, err := url.Parse(v.URL); err == nil && hostIs(strings.ToLower(u.Hostname()), "captcha-delivery.com") {
		p.ddSeen = true
		p.ddT = u.Query().Get("t")
	}
}

// fold trims and collapses runs of whitespace (including no-break spaces).
func fold(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == '\u00a0'
	}), " ")
}

// normalize folds, lowercases and spells "…" as "...".
func normalize(s string) string {
	return strings.ReplaceAll(strings.ToLower(fold(s)), "…", "...")
}
