package extract

import (
	"regexp"
	"strings"
	"unicode"
)

// This file reads a card's price: an element named as the price, a labelled
// price, else the first price line that is not a rate per m² or a financing
// teaser (numbers.go reads the amounts).

// cardPrice: the first price in an element named as the price, else a
// labelled price (Kaltmiete, Kaufpreis …), else the first price line that is
// not a rate per m² or a monthly financing teaser.
func cardPrice(ls []string, f facts, nm []named, m *skipMemo) string {
	for _, e := range nm {
		if !priceHint.in(e.words) || notPriceHint.in(e.words) {
			continue
		}
		for _, ln := range m.lines(e.node) {
			if p := m.priceIn(ln); p != "" && !rateAt(ln, p) {
				return p
			}
		}
	}
	if v := f.get(priceLabels); v != "" {
		if p := findPrice(v); p != "" {
			return p
		}
	}
	// A line that is a price beats a price inside a sentence.
	prose := ""
	for _, ln := range ls {
		if p := m.priceIn(ln); p != "" && !rateAt(ln, p) {
			if len(ln) <= len(p)+12 {
				return p
			}
			if prose == "" {
				prose = p
			}
		}
	}
	return prose
}

var rePerUnit = regexp.MustCompile(`(?i)(/\s?m²|/\s?m2|/\s?qm|(?:pro|per)\s?(?:m²|m2|qm|sq)|\brate\b|ab\s+\d|finanzier|nebenkosten|\bnk\b)`)

func perUnit(line string) bool { return rePerUnit.MatchString(line) }

// rateAt: the price p of the line is a rate (per m², a financing teaser), read
// up to p and the words after it: a price beside its rate per m² ("2.474.300 €
// 4.651 €/m²") is the price.
func rateAt(ln, p string) bool {
	i := strings.Index(ln, p)
	if i < 0 {
		return perUnit(ln)
	}
	after := ln[i+len(p):]
	if j := strings.IndexFunc(after, unicode.IsDigit); j >= 0 {
		after = after[:j]
	}
	return perUnit(ln[:i+len(p)] + after)
}
