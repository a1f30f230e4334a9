package extract

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"

	"notifio/internal/model"
)

// This file reads the amounts a card shows: prices, living areas and rooms.

const number = `(?:\d{1,3}(?:[.,\x{a0}\x{202f}\x{2009}'\x{2019} ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?:[.,][-–])?` // "1.200,-"

// sp is a space between an amount and its currency or multiplier, the
// no-break and thin spaces too (Go's \s is ASCII only).
const sp = `[\s\x{a0}\x{202f}\x{2009}]`

// multiplier is a word for thousands, ten thousands, lakhs, crores or
// millions written after the amount ("2k €", "12 тис. грн", "8万円", "₹ 45
// lakh", "1,2 Mio. €"); multipliers gives each its factor.
const multiplier = `(?:k\b|Tsd\.|тис\.|tys\.|万|lakh|crore|Mio\.?|Millionen|[Mm]illions?|mln\.?|M\b)`

// currency is a pattern of the signs and codes of currencyCodes, the longer
// first ("kr." before "kr"), so the price patterns and mentionsCurrency know
// the same currencies.
var currency = func() string {
	signs := slices.Collect(maps.Keys(currencyCodes))
	slices.SortFunc(signs, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	for i, c := range signs {
		signs[i] = regexp.QuoteMeta(c)
	}
	return strings.Join(signs, "|")
}()

var (
	// rePrice matches a price as shown: an amount (or a range) with its currency
	// before or after, and a trailing "VB" (negotiable) where the site writes it.
	rePrice = regexp.MustCompile(`(?:(?:` + currency + `)` + sp + `?(?:` + number + `)(?:` + sp + `?[-–]` + sp + `?(?:[^\d\s]{1,3}` + sp + `?)?(?:` + number + `))?|(?:` + number + `)(?:` + sp + `?[-–]` + sp + `?(?:` + number + `))?(?:` + sp + `?` + multiplier + `)?` + sp + `?(?:` + currency + `)(?:\s?VB\b)?)`)
	// reOnRequest is anchored as a whole (one ^ before the alternatives), so
	// that a long line is not tried at every position.
	reOnRequest = regexp.MustCompile(`(?i)^(?:(?:preis )?auf anfrage|price on (?:request|application)|on request|poa|vb|zu verschenken|free|gratis)$`)
	reNumber    = regexp.MustCompile(number)
	reRange     = regexp.MustCompile(`\d\s?[-–]\s?(?:` + currency + `)?\s?\d`)
	reCurrency  = regexp.MustCompile(currency)
	// reMultiplier: the amount before it is in thousands, lakhs, millions …
	reMultiplier = regexp.MustCompile(`^` + sp + `?` + multiplier)
	// reDiscount: the word after a price that makes it a saving, not the
	// price ("$900 OFF").
	reDiscount = regexp.MustCompile(`(?i)^\s*(off|sparen|save|rabatt|discount)\b`)

	// reSize keeps the word a card writes after the area ("149 m² Wohnfläche"):
	// it tells a living area from a plot.
	reSize = regexp.MustCompile(`(?i)(?:ca\.?\s*|~\s*)?\d+(?:[.,]\d+)?(?:\s?[-–]\s?\d+(?:[.,]\d+)?)?\s?(?:m²|m2|qm|m\x{b2}|sq\.?\s?ft|sqm)(?:\s(?:(?:wohnfläche|living area|living space)\b|wohnfl\.))?`)
	// reRooms keeps the word the count is part of ("2-Zimmer-Wohnung").
	reRooms = regexp.MustCompile(`(?i)\d+(?:[.,]\d)?(?:\s?[-–]\s?\d+(?:[.,]\d)?)?\s?(?:-?\s?zimmer\b(?:-\p{L}+)*|zi\b\.?|zkb\b|raum\b|räume\b|rooms?\b|bedrooms?\b|beds?\b|pokoje\b|pokój|pok\.|habitaci(?:ones|ón)\b|hab\.|locali\b|vær(?:elser)?\b|rum\b|kamers?\b|pi[eè]ces?\b)`)
)

// findPrice returns the first price shown in s ("1.950 € VB", "€ 3.500",
// "505.900 - 999.900 €", "Preis auf Anfrage"), "" if there is none. A saving
// ("$900 OFF") is not a price.
func findPrice(s string) string {
	if !hasDigit(s) {
		if reOnRequest.MatchString(strings.TrimSpace(s)) {
			return strings.TrimSpace(s)
		}
		return ""
	}
	if !mentionsCurrency(s) {
		return "" // an amount without a currency is not a price
	}
	for _, loc := range rePrice.FindAllStringIndex(s, -1) {
		after := s[loc[1]:]
		if reDiscount.MatchString(after) {
			continue
		}
		if w := reMultiplier.FindString(after); w != "" {
			loc[1] += len(w) // "€ 1,2 Mio", "₹ 45 lakh"
		}
		return strings.TrimSpace(s[loc[0]:loc[1]])
	}
	return ""
}

// priceValue parses a shown price: "1.250 €" → 1250 EUR, "€1,250" → 1250,
// "1.250,50 €" → 1250.5. A range or a price on request has no value (0).
func priceValue(price string) (float64, string) {
	cur := currencyCode(reCurrency.FindString(price))
	if reRange.MatchString(price) {
		return 0, cur
	}
	loc := reNumber.FindStringIndex(price)
	if loc == nil {
		return 0, cur
	}
	v := model.ShownNumber(price[loc[0]:loc[1]])
	if w := reMultiplier.FindString(price[loc[1]:]); w != "" {
		v *= multipliers[strings.TrimRight(strings.TrimSpace(strings.TrimLeft(w, "\u00a0\u202f\u2009")), ".")]
	}
	return v, cur
}

// multipliers are the factors of the words of multiplier (without their dot).
var multipliers = map[string]float64{
	"k": 1e3, "Tsd": 1e3, "тис": 1e3, "tys": 1e3, "万": 1e4, "lakh": 1e5, "crore": 1e7,
	"Mio": 1e6, "Millionen": 1e6, "Million": 1e6, "million": 1e6, "Millions": 1e6, "millions": 1e6, "mln": 1e6, "M": 1e6,
}

// currencyCodes are the signs and codes a price is written with, twice in
// rePrice: over 500 instructions Go's regexp runs its slower NFA, not the
// backtracker (425 now, TestPricePatternFitsTheBacktracker; 501 made
// inberlinwohnen 13% slower).
var currencyCodes = map[string]string{
	"€": "EUR", "EUR": "EUR", "$": "USD", "US$": "USD", "USD": "USD", "£": "GBP", "GBP": "GBP",
	"CHF": "CHF", "Fr.": "CHF", "zł": "PLN", "PLN": "PLN", "SEK": "SEK", "NOK": "NOK", "DKK": "DKK",
	"Kč": "CZK", "CZK": "CZK", "Ft": "HUF", "HUF": "HUF", "lei": "RON", "RON": "RON", "₹": "INR",
	"¥": "JPY", "R$": "BRL", "A$": "AUD", "C$": "CAD", "kr": "SEK", "kr.": "DKK",
	"₽": "RUB", "руб.": "RUB", "RUB": "RUB", "₴": "UAH", "грн.": "UAH", "грн": "UAH", "UAH": "UAH", "₺": "TRY", "₪": "ILS",
	"лв.": "BGN", "BGN": "BGN", "円": "JPY", "JPY": "JPY",
}

func currencyCode(sign string) string { return currencyCodes[sign] }

// currencyByFirstByte is the signs and codes of currencyCodes by their first
// byte, so that mentionsCurrency looks at each byte of a text once (it runs on
// every text of the page with a digit in it).
var currencyByFirstByte = func() (t [256][]string) {
	for c := range currencyCodes {
		t[c[0]] = append(t[c[0]], c)
	}
	return t
}()

// mentionsCurrency reports whether s holds a currency sign or code: without
// one it holds no price, and the price pattern need not run over it.
func mentionsCurrency(s string) bool {
	for i := 0; i < len(s); i++ {
		for _, c := range currencyByFirstByte[s[i]] {
			if strings.HasPrefix(s[i:], c) {
				return true
			}
		}
	}
	return false
}

// findSize returns the living area shown in s ("70 m²", "~1.170 m²"), with
// "m2"/"qm" written as m², "" if none.
func findSize(s string) string {
	if !hasDigit(s) {
		return ""
	}
	m := reSize.FindString(s)
	if m == "" {
		return ""
	}
	return normSize(m)
}

func normSize(s string) string {
	for _, w := range []string{"m2", "M2", "qm"} {
		if strings.HasSuffix(s, w) {
			return s[:len(s)-len(w)] + "m²"
		}
	}
	return s
}

// findRooms returns the rooms shown in s ("2 Zi.", "3 Zimmer", "2 rooms").
func findRooms(s string) string {
	if !hasDigit(s) {
		return ""
	}
	return reRooms.FindString(s)
}

// hasDigit: every amount has one (a cheap test before the regexps).
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// amount reports whether s is a bare amount ("3", "2,5", "55 - 117") — the value
// of a labelled fact.
var reBare = regexp.MustCompile(`^(?:ca\.?\s*|~\s*)?\d+(?:[.,]\d+)?(?:\s?[-–]\s?\d+(?:[.,]\d+)?)?$`)

func bareAmount(s string) bool { return reBare.MatchString(strings.TrimSpace(s)) }
