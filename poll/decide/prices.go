package decide

import (
	"time"

	"notifio/internal/model"
)

// This file is what a poll learns about listings it has seen before: their
// price changes (kept as a history on the listing) and their return after
// being gone a while ("back on the market").

// again handles a listing the search has seen before: delivered or held back
// by a filter.
func (p *poll) again(l model.Listing, held bool) error {
	last, present := p.st.PresentPrice(l.ID)
	relisted := false
	if !present && !p.upgraded {
		if at, ok := p.st.GoneSince(l.ID); ok && p.now.Sub(at) >= model.RelistAfter {
			relisted = true
		}
	}
	if present && last == l.PriceValue {
		return nil // as last time: nothing to read or write (and not gone, so not relisted)
	}
	if err := p.st.SetPresent(l); err != nil {
		return err
	}
	rec, err := p.st.Record(l.ID, held)
	if err != nil {
		return err
	}
	change := priceChange(rec, l)
	if change != "" {
		newPrice(&rec, l, p.now)
	}
	rec.Held, rec.Marks = l.Held, l.Marks // as the filters see it now
	announce := l.Held == "" && (change == model.ChangePriceDrop && !p.s.Filters.NoPriceDrops ||
		change == model.ChangePriceRise && p.s.Filters.PriceRises)
	if err := p.putBack(rec, held, announce); err != nil {
		return err
	}
	if held && (!announce || !p.s.Baselined) {
		return nil // still held back: the window offers it when a filter is loosened
	}
	switch {
	case !p.s.Baselined:
	case announce:
		rec.Change = change
		p.changed = append(p.changed, rec)
	case relisted && l.Held == "" && !held: // a held one waits for the window
		rec.Change, rec.OldPrice = model.ChangeRelisted, ""
		p.fresh = append(p.fresh, rec)
	}
	return nil
}

// newPrice records the price l shows now in the listing's history.
func newPrice(rec *model.Listing, l model.Listing, now time.Time) {
	rec.OldPrice = rec.Price
	if len(rec.Prices) == 0 && rec.PriceValue > 0 {
		rec.Prices = []model.PricePoint{{At: rec.FirstSeen, Price: rec.Price, Value: rec.PriceValue}}
	}
	rec.Prices = append(rec.Prices, model.PricePoint{At: now, Price: l.Price, Value: l.PriceValue})
	rec.Price, rec.PriceValue, rec.Currency = l.Price, l.PriceValue, orKeep(l.Currency, rec.Currency)
}

// putBack writes the listing's record back where it is kept. A held-back
// listing whose price fell under the user's limit (announce, after the
// baseline) is delivered now, as a drop: it moves from the held ones to the
// search's listings.
func (p *poll) putBack(rec model.Listing, held, announce bool) error {
	if !held {
		return p.st.PutSeen(rec)
	}
	if !announce || !p.s.Baselined {
		return p.st.PutHeld(rec)
	}
	return p.st.Release(rec)
}

// priceChange compares the stored price with the one on the page. A price not
// shown (now or before) or in another currency is no change.
func priceChange(rec, now model.Listing) model.Change {
	if rec.PriceValue <= 0 || now.PriceValue <= 0 || rec.PriceValue == now.PriceValue {
		return ""
	}
	if rec.Currency != "" && now.Currency != "" && rec.Currency != now.Currency {
		return ""
	}
	if now.PriceValue < rec.PriceValue {
		return model.ChangePriceDrop
	}
	return model.ChangePriceRise
}

func orKeep(v, old string) string {
	if v == "" {
		return old
	}
	return v
}
