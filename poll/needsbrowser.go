package poll

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A page that shows its listings only with JavaScript: plain reading finds
// an empty shell (a script, a mount point, perhaps a "please enable
// JavaScript" note) and classify calls it an unexpected page. The pipeline
// marks it with words.SignalNeedsBrowser, so that the rows, the Sites tab, `notifio
// search list`/`status` and the alerts all say it needs a browser
// (words.WordsNeedsBrowser) instead of "did not look like results" or "had errors
// (server or network)" (issue 37).

// shellText is at most how much text (outside scripts, styles, noscript and
// the head) a script shell has: a mount point and a short note or footer.
const shellText = 300

// scriptShell reports whether doc runs scripts and shows almost no text.
func scriptShell(doc *html.Node) bool {
	scripts, text := 0, 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if text > shellText {
			return
		}
		switch {
		case n.Type == html.ElementNode && n.Data == "script":
			scripts++
			return
		case n.Type == html.ElementNode && (n.Data == "style" || n.Data == "noscript" || n.Data == "template" || n.Data == "head"):
			if n.Data == "head" { // scripts in the head count, its title does not
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "script" {
						scripts++
					}
				}
			}
			return
		case n.Type == html.TextNode:
			text += utf8.RuneCountInString(strings.Join(strings.Fields(n.Data), " "))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return scripts > 0 && text <= shellText
}
