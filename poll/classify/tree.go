package classify

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// scanTree collects the same evidence as scanPage from a page extraction has
// already parsed, instead of tokenizing the body a second time (the poll's
// pipeline then reads each page once: docs/PERFORMANCE.md). The raw-text content
// of noscript, iframe, noembed and noframes is scanned as markup, as scanPage
// does.
func scanTree(doc *html.Node, body []byte, contentType string) *page {
	p := &page{}
	if strings.Contains(strings.ToLower(contentType), "json") {
		p.scanJSON(body)
	}
	w := treeWalk{p: p}
	w.walk(doc, 0)
	p.finish()
	return p
}

type treeWalk struct {
	p        *page
	depth    int              // raw-text content parsed as markup inside such content
	codeOpen bool             // a cf-error-code element was seen: its text comes next
	h1       *strings.Builder // the outermost <h1>'s text, while inside one
	buf      []byte
}

func (w *treeWalk) bytes(s string) []byte {
	w.buf = append(w.buf[:0], s...)
	return w.buf
}

func (w *treeWalk) walk(n *html.Node, foreign int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.ElementNode:
			w.element(c, foreign)
		case html.TextNode:
			w.text(c.Data)
		}
	}
}

// attrsOf reads the attributes the rules look at.
func attrsOf(n *html.Node) attrs {
	var a attrs
	for _, at := range n.Attr {
		switch at.Key {
		case "id":
			a.id = at.Val
		case "class":
			a.class = at.Val
		case "src":
			a.src = at.Val
		case "action":
			a.action = at.Val
		case "name":
			a.name = at.Val
		case "data-translate":
			a.translate = at.Val
		case "type":
			a.typ = at.Val
		}
	}
	return a
}

func (w *treeWalk) element(n *html.Node, foreign int) {
	p := w.p
	a := attrsOf(n)
	tag := n.Data
	if p.element(tag, &a) {
		w.codeOpen = true
	}
	switch tag {
	case "script":
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				p.script(w.bytes(c.Data))
			}
		}
		return
	case "style", "textarea", "xmp":
		return
	case "title":
		if foreign == 0 && n.Namespace == "" && !p.titleSeen {
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode && b.Len() < 1024 {
					b.WriteString(c.Data)
				}
			}
			p.titleSeen = true
			p.title = fold(b.String())
			p.checkTitle()
		}
		return
	case "noscript", "iframe", "noembed", "noframes":
		w.rawMarkup(n, foreign)
		return
	}
	if tag == "svg" || tag == "math" {
		foreign++
	}
	if tag == "h1" && w.h1 == nil {
		var b strings.Builder
		w.h1 = &b
		w.walk(n, foreign)
		w.h1 = nil
		p.addHeading(b.String())
		return
	}
	w.walk(n, foreign)
	if tag == "form" {
		p.formEnd()
	}
}

func (w *treeWalk) text(s string) {
	if w.h1 != nil && w.h1.Len() < 1024 {
		w.h1.WriteString(s)
	}
	if w.codeOpen {
		if t := strings.TrimSpace(s); t != "" {
			w.p.cfErrorCode = t
			w.codeOpen = false
		}
	}
	w.p.text(w.bytes(s))
}

// rawMarkup scans the raw-text content of noscript, iframe, noembed and
// noframes as markup (challenge pages put elements there), two levels deep at
// most; deeper it is text.
func (w *treeWalk) rawMarkup(n *html.Node, foreign int) {
	p := w.p
	prev := p.inIframe
	p.inIframe = p.inIframe || n.Data == "iframe"
	defer func() { p.inIframe = prev }()
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode:
			w.element(c, foreign)
		case c.Type != html.TextNode:
		case w.depth >= 2:
			w.text(c.Data)
		default:
			nodes, err := html.ParseFragment(strings.NewReader(c.Data), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
			if err != nil {
				continue
			}
			w.depth++
			for _, m := range nodes {
				holder := &html.Node{Type: html.DocumentNode}
				holder.AppendChild(m)
				w.walk(holder, foreign)
			}
			w.depth--
		}
	}
}
