package ui

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"notifio/internal/model"
)

// sortedSearches returns the searches grouped by site, and by name within a
// site in the order a person counts ("Mitte 3" before "Mitte 10"), so one
// portal's searches stand together. s is not changed.
func sortedSearches(s []model.SearchSnapshot) []model.SearchSnapshot {
	less := func(a, b *model.SearchSnapshot) int {
		if c := cmp.Compare(a.Site, b.Site); c != 0 {
			return c
		}
		if c := naturalCompare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	}
	if slices.IsSortedFunc(s, func(a, b model.SearchSnapshot) int { return less(&a, &b) }) {
		return s
	}
	// Sorted as pointers: the snapshots are large (see poll's Snapshot).
	ptrs := make([]*model.SearchSnapshot, len(s))
	for i := range s {
		ptrs[i] = &s[i]
	}
	slices.SortFunc(ptrs, less)
	out := make([]model.SearchSnapshot, len(s))
	for i, p := range ptrs {
		out[i] = *p
	}
	return out
}

// naturalCompare compares two names as a person reads them: runs of digits by
// their number, the rest without regard to case.
func naturalCompare(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		if unicode.IsDigit(ra[i]) && unicode.IsDigit(rb[j]) {
			ei, ej := digitsEnd(ra, i), digitsEnd(rb, j)
			na := strings.TrimLeft(string(ra[i:ei]), "0")
			nb := strings.TrimLeft(string(rb[j:ej]), "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		ca, cb := unicode.ToLower(ra[i]), unicode.ToLower(rb[j])
		if c := cmp.Compare(ca, cb); c != 0 {
			return c
		}
		i, j = i+1, j+1
	}
	return cmp.Compare(len(ra)-i, len(rb)-j)
}

// digitsEnd is the index after the run of digits that starts at i.
func digitsEnd(r []rune, i int) int {
	for i < len(r) && unicode.IsDigit(r[i]) {
		i++
	}
	return i
}

// matchesFilter reports whether a search is among those the user's search box
// asks for: every word of the query in its name or site, capitals aside.
func matchesFilter(s model.SearchSnapshot, query string) bool {
	hay := strings.ToLower(s.Name + " " + s.Site)
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}
