package extract

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// This file says what a page without listings is: a bot check served instead
// of results, or a results page that says it found nothing.

// blockedTitles are page titles of bot checks served instead of results.
var blockedTitles = []string{"ich bin kein roboter", "just a moment", "attention required", "access denied",
	"are you a robot", "are you human", "captcha", "security check", "pardon our interruption", "bot protection",
	"zugriff verweigert", "sicherheitsüberprüfung", "un momento", "verifica di sicurezza", "request unsuccessful"}

var (
	reCaptchaScript = regexp.MustCompile(`(?i)geetest|recaptcha|hcaptcha|captcha-delivery|challenges\.cloudflare\.com|px-captcha|perimeterx|distil|/cdn-cgi/challenge-platform`)
	reCaptchaID     = regexp.MustCompile(`(?i)captcha|challenge-form|cf-challenge|challenge-running|px-captcha|distil`)
)

// blocked returns evidence that a page without listings is a bot check ("" if
// none): its title, a captcha script, or a captcha element.
func (pg *page) blocked() string {
	title := PageTitle(pg.root)
	t := strings.ToLower(title)
	for _, m := range blockedTitles {
		if strings.Contains(t, m) {
			return fmt.Sprintf("title %q", title)
		}
	}
	var evidence string
	pg.doc.FindMatcher(matcher("script[src], [id]")).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if src := s.AttrOr("src", ""); src != "" && reCaptchaScript.MatchString(src) {
			evidence = "captcha script " + src
		} else if id := s.AttrOr("id", ""); id != "" && reCaptchaID.MatchString(id) {
			evidence = "element #" + id
		}
		return evidence == ""
	})
	return evidence
}

// PageTitle is the text of the page's first <title> that has some ("" if
// none): the product's one page-title reader.
func PageTitle(root *html.Node) string {
	var out string
	goquery.NewDocumentFromNode(root).FindMatcher(matcher("title")).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if s.ParentsFiltered("svg").Length() > 0 {
			return true // an icon's title, not the page's
		}
		out = clean(s.Text())
		return out == ""
	})
	return out
}

// noResultsPhrases are phrases by which result pages say they found nothing.
var noResultsPhrases = []string{
	"keine ergebnisse", "0 treffer", "keine treffer", "no results", "0 results", "keine passenden angebote",
	"0 ergebnisse", "0 angebote", "keine angebote gefunden", "keine anzeigen gefunden", "leider keine passenden",
	"leider keine angebote", "leider keine ergebnisse", "leider keine treffer", "nothing found", "no listings", "no matches", "no properties found",
	"keine objekte gefunden", "keine immobilien gefunden", "no hay anuncios", "no hay resultados",
	"nessun risultato", "nessun annuncio", "aucun résultat", "aucune annonce", "geen resultaten", "brak wyników",
}

// saysNoResults reports whether the page's visible text holds one of the
// phrases (the site's own, then the common ones: looked up once per page, as
// a profile and automatic extraction may both ask).
func (pg *page) saysNoResults(own []string) bool {
	if pg.lowerText == nil {
		t := strings.ToLower(pageText(pg.root))
		pg.lowerText = &t
	}
	if holdsPhrase(*pg.lowerText, own) {
		return true
	}
	if pg.saysNone == nil {
		v := holdsPhrase(*pg.lowerText, noResultsPhrases)
		pg.saysNone = &v
	}
	return *pg.saysNone
}

// holdsPhrase reports whether body holds one of the phrases. A phrase that
// starts with a digit must not follow one ("10 Treffer" is not "0 Treffer").
func holdsPhrase(body string, phrases []string) bool {
	for _, ph := range phrases {
		for i := 0; ; {
			j := strings.Index(body[i:], ph)
			if j < 0 {
				break
			}
			j += i
			if ph[0] >= '0' && ph[0] <= '9' && j > 0 {
				if c := body[j-1]; c >= '0' && c <= '9' || c == '.' || c == ',' {
					i = j + 1
					continue
				}
			}
			return true
		}
	}
	return false
}

// pageText is the page's visible text in one string, words apart by one
// space, for looking up phrases (plainer than lines: no layout, no cleaning).
func pageText(root *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			for w := range strings.FieldsSeq(n.Data) {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(w)
			}
			return
		}
		if n.Type == html.ElementNode && skipStructure(n) {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return b.String()
}
