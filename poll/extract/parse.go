package extract

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parse parses the page once with the HTML5 parser. That parser refuses pages
// nested deeper than 512 elements (runaway unclosed tags); those are read by
// parseFlat instead, so a malformed page still gives its listings.
func parse(body []byte) *html.Node {
	if root, err := html.Parse(bytes.NewReader(body)); err == nil {
		return root
	}
	return parseFlat(body)
}

// maxFlatDepth is the deepest parseFlat nests.
const maxFlatDepth = 256

var voidElements = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true,
	atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true, atom.Source: true, atom.Track: true, atom.Wbr: true,
}

// parseFlat builds a tree straight from the tokenizer: no HTML5 insertion
// modes, an end tag closes the nearest open element of its name (ignored when
// none is open), and nesting is capped at maxFlatDepth.
func parseFlat(body []byte) *html.Node {
	doc := &html.Node{Type: html.DocumentNode}
	stack := []*html.Node{doc}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return doc
		case html.TextToken:
			stack[len(stack)-1].AppendChild(&html.Node{Type: html.TextNode, Data: string(z.Text())})
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			n := &html.Node{Type: html.ElementNode, Data: tok.Data, DataAtom: tok.DataAtom, Attr: tok.Attr}
			if len(stack) >= maxFlatDepth {
				// Runaway unclosed tags: take the deeper half as closed, so what
				// follows still nests (a list and its items) without the tree
				// growing deeper than maxFlatDepth.
				stack = stack[:maxFlatDepth/2]
			}
			stack[len(stack)-1].AppendChild(n)
			if tt == html.StartTagToken && !voidElements[tok.DataAtom] {
				stack = append(stack, n)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].Data == string(name) {
					stack = stack[:i]
					break
				}
			}
		}
	}
}
