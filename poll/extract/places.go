package extract

import (
	"regexp"
	"strings"
)

// This file reads where a listing is: an element named as the place, a
// labelled address, else the line of the card that names a place — a postcode
// line, or a place name with its region, district or street ("Houston, TX",
// "Düsseldorf / Oberkassel", "2-Zimmer-Wohnung | Berlin Mitte | Brunnenstraße").

var (
	// reAddress: a postcode and a town, at the start or after the street
	// ("40627 Düsseldorf", "Am Albertussee 41, 40549 Düsseldorf").
	reAddress = regexp.MustCompile(`(?:^|, )(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{Lu}`)
	// rePlaceName: one to three capitalised words — a town or a district.
	rePlaceName = regexp.MustCompile(`^\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*){0,2}$`)
	// reRegionCode: a town's state or province code ("TX", "NSW").
	reRegionCode = regexp.MustCompile(`^[A-Z]{2,3}$`)
	// rePlaceSep: the separators a card puts between a place's parts.
	rePlaceSep = regexp.MustCompile(`\s+[|/·•]\s+|\s*\|\s*|,\s+`)
)

// cardLocation: an element named as the address or place, a labelled address,
// else an address line, else a line that names a place (readCard drops a
// trailing distance).
func cardLocation(ls []string, f facts, nm []named, title string, m *skipMemo) string {
	for _, e := range nm {
		if !placeHint.in(e.words) {
			continue
		}
		t := m.text(e.node)
		if t == "" && e.node.Parent != nil {
			t = m.text(e.node.Parent) // an icon: the place is written beside it
		}
		// A place has letters (a map marker's number or a counter is none) and
		// no price (an element so named that holds one is more than the place).
		if len(t) < 120 && letters(t) >= 2 && findPrice(t) == "" {
			return t
		}
	}
	if v := f.get(placeLabels); v != "" {
		return v
	}
	for _, ln := range ls {
		if len(ln) < 80 && digitRun(ln, 4) && reAddress.MatchString(ln) {
			return ln
		}
	}
	for _, ln := range ls {
		if ln == title {
			continue
		}
		if p := placeLine(ln); p != "" {
			return p
		}
	}
	return ""
}

// placeLine returns the place a line names, "" when it names none. A place
// is a name followed by its region code ("Houston, TX"), its district
// ("Düsseldorf / Oberkassel") or its street ("Berlin Mitte | Brunnenstraße");
// the facts a line starts with ("2-Zimmer-Wohnung |", "3er WG |") are not
// part of the place. A name alone is not enough: "Balkon" is a word too.
func placeLine(ln string) string {
	if !mayHoldPlaceSep(ln) {
		return "" // no separator: one part
	}
	seps := rePlaceSep.FindAllStringIndex(ln, -1) // one pass: the separators of rest are these
	start, i := 0, 0
	for ; i < len(seps); i++ {
		if !hasDigit(ln[start:seps[i][0]]) {
			break
		}
		start = seps[i][1] // a leading fact: the place follows it
	}
	rest, seps := ln[start:], seps[i:]
	if len(seps) == 0 || !rePlaceName.MatchString(ln[start:seps[0][0]]) {
		return ""
	}
	two := len(seps) == 1 // the place and one part after it
	second := ln[seps[0][1]:]
	sep := strings.TrimSpace(ln[seps[0][0]:seps[0][1]])
	switch {
	case sep == "," && two && reRegionCode.MatchString(second):
	case sep == "/" && two && rePlaceName.MatchString(second):
	case sep == "|" && start > 0:
	default:
		return ""
	}
	return rest
}

// mayHoldPlaceSep reports whether ln holds a separator rePlaceSep matches: a
// "|", a "," before a space, or a "/", "·" or "•" between spaces. The pattern
// has no fixed start and is tried at every position; most lines ("12 mins
// ago·Peabody", "••••") hold none of its separators.
func mayHoldPlaceSep(ln string) bool {
	if strings.Contains(ln, "|") {
		return true
	}
	for _, sep := range []string{",", "/", "·", "•"} {
		for i := 0; ; {
			j := strings.Index(ln[i:], sep)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(sep)
			if (sep == "," || at > 0 && reSpace(ln[at-1])) && end < len(ln) && reSpace(ln[end]) {
				return true
			}
			i = end
		}
	}
	return false
}

// reSpace reports a byte that \s matches in a pattern (tab, newline, form
// feed, carriage return, space).
func reSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

// digitRun reports a run of at least n ASCII digits in s (a postcode has
// four or five): the address pattern need not run over a line without one.
func digitRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
