package decide

import (
	"slices"
	"strings"

	"notifio/internal/model"
)

// This file keeps one flat one alert: the same listing found by two searches
// (same site, same ID), and the same flat listed on two sites (the same price,
// and SameFlat says so).

// siteOfID is the site part of a site-namespaced listing ID.
func siteOfID(id string) string {
	site, _, _ := strings.Cut(id, ":")
	return site
}

// mergeDuplicate reports whether l, new to this search, was already announced
// by another search or as the same flat on another site. If so it is recorded
// with the others named (AlsoIn, SameAs) and the other's unsent alerts name
// this search or site too, so the user gets one alert.
func (p *poll) mergeDuplicate(l *model.Listing) (bool, error) {
	if searches, outbox := p.st.SeenBy(l.ID); len(searches) > 0 && !slices.Contains(searches, p.s.ID) {
		// A removed search's listings are gone with it: they merge nothing.
		if names := p.st.SearchNames(searches); len(names) > 0 {
			l.AlsoIn = names
			err := p.st.AmendOutbox(outbox, l.ID, func(o *model.Listing) { o.AlsoIn = appendNew(o.AlsoIn, p.s.Name) })
			return true, err
		}
	}
	if p.sameFlat == nil || l.PriceValue <= 0 {
		return false, nil
	}
	searches, ls := p.st.FlatsAt(l.PriceValue)
	for i, r := range ls {
		if siteOfID(r.ID) == siteOfID(l.ID) ||
			r.SameAs != nil && r.SameAs.Site == siteOfID(l.ID) {
			continue // one site's two listings are two flats, also by way of a third
		}
		why, ok := p.sameFlat(r, *l)
		if !ok {
			continue
		}
		l.SameAs = &model.SameFlat{ID: r.ID, Site: siteOfID(r.ID), URL: r.URL, Title: r.Title, Why: why}
		also := model.SameFlat{ID: l.ID, Site: siteOfID(l.ID), URL: l.URL, Title: l.Title, Why: why}
		add := func(o *model.Listing) {
			if !slices.ContainsFunc(o.AlsoOn, func(s model.SameFlat) bool { return s.ID == also.ID }) {
				o.AlsoOn = append(o.AlsoOn, also)
			}
		}
		_, outbox := p.st.SeenBy(r.ID)
		if err := p.st.AmendOutbox(outbox, r.ID, add); err != nil {
			return true, err
		}
		return true, p.st.UpdateStored(searches[i], r.ID, add)
	}
	return false, nil
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
