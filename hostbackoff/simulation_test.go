package hostbackoff_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// The outage simulation: five searches on one portal, each polling every 30 s,
// through a two-hour outage in which the site refuses every request with one kind,
// and then recovers. It counts the requests the site receives during the outage
// with no backoff at all, with the policy keyed by search URL (each search its own
// entry and so its own ladder), and keyed by site as Notifio does (one entry, one
// probe). It also measures how long after recovery the first search, and then all
// five, got a page: the price of backing off.

const (
	simSearches = 5
	simInterval = 30 * time.Second
	simLatency  = 2 * time.Second // from sending a request to recording its outcome
	simOutage   = 2 * time.Hour
)

type simKeying int

const (
	noBackoff simKeying = iota
	keyedByURL
	keyedBySite
)

type simResult struct {
	requests  int           // requests the site received during the outage
	firstBack time.Duration // outage end → first successful response
	allBack   time.Duration // outage end → every search has had one
}

func simulate(kind model.Refusal, keying simKeying, seed uint64) simResult {
	start := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	end := start.Add(simOutage)
	reg := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy, Random: rand.New(rand.NewPCG(seed, uint64(kind))).Float64})

	type search struct {
		id, url, key string
		next         time.Time // when it next asks to poll
		recovered    time.Time // its first successful response after the outage
	}
	type outcome struct {
		at      time.Time
		key     string
		search  int
		refused bool
	}
	ss := make([]*search, simSearches)
	for i := range ss {
		u := fmt.Sprintf("https://www.wohnen.example.de/suche?bezirk=%d&max=%d", i+1, 800+100*i)
		parsed, _ := url.Parse(u)
		s := &search{id: fmt.Sprintf("s%d", i+1), url: u, next: start.Add(time.Duration(i) * simInterval / simSearches)}
		s.key = s.url
		if keying == keyedBySite {
			s.key = model.SiteOf(parsed.Host)
		}
		ss[i] = s
	}
	var pending []outcome
	var res simResult
	for {
		// The next event: an outcome comes before an attempt at the same instant.
		oi := -1
		for i, o := range pending {
			if oi < 0 || o.at.Before(pending[oi].at) {
				oi = i
			}
		}
		si := 0
		for i, s := range ss {
			if s.next.Before(ss[si].next) {
				si = i
			}
		}
		if oi >= 0 && !pending[oi].at.After(ss[si].next) {
			o := pending[oi]
			pending = append(pending[:oi], pending[oi+1:]...)
			if keying == noBackoff {
				if !o.refused && ss[o.search].recovered.IsZero() {
					ss[o.search].recovered = o.at
				}
			} else if o.refused {
				reg.Record(o.key, kind, 0, o.at)
			} else {
				reg.Success(o.key, o.at)
				if ss[o.search].recovered.IsZero() {
					ss[o.search].recovered = o.at
				}
			}
			continue
		}

		s, now := ss[si], ss[si].next
		done := true
		for _, s := range ss {
			done = done && !s.recovered.IsZero()
		}
		if done || now.After(end.Add(6*time.Hour)) {
			break
		}
		send := true
		if keying != noBackoff {
			switch d := reg.Admit(s.key, s.id, now); d.Verdict {
			case hostbackoff.Wait:
				send = false
				if d.Reason == hostbackoff.ReasonWaitingForProbe {
					s.next = now.Add(simInterval) // look again at the usual pace
				} else {
					s.next = d.Until // sleep until the site is due
				}
			}
		}
		if send {
			if now.Before(end) {
				res.requests++
			}
			pending = append(pending, outcome{at: now.Add(simLatency), key: s.key, search: si, refused: now.Before(end)})
			s.next = now.Add(simInterval)
		}
	}
	res.firstBack, res.allBack = time.Duration(1<<62), 0
	for _, s := range ss {
		res.firstBack = min(res.firstBack, s.recovered.Sub(end))
		res.allBack = max(res.allBack, s.recovered.Sub(end))
	}
	return res
}

func TestSimulationOutage(t *testing.T) {
	const seeds = 200
	var b strings.Builder
	fmt.Fprintf(&b, "Five searches on one site, each polling every 30 s, through a 2 h outage.\n")
	fmt.Fprintf(&b, "Requests the site receives during the outage: seed 1 (min–max over %d seeds).\n", seeds)
	fmt.Fprintf(&b, "Recovery: outage end → first page, mean over the seeds (worst).\n\n")
	fmt.Fprintf(&b, "| kind | no backoff | keyed by search URL | keyed by site | recovery, by URL | recovery, by site |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|\n")
	for _, k := range model.Refusals() {
		none := simulate(k, noBackoff, 1)
		if want := simSearches * int(simOutage/simInterval); none.requests != want {
			t.Fatalf("%s: no backoff sent %d requests, want %d", k, none.requests, want)
		}
		byURL, bySite := simulate(k, keyedByURL, 1), simulate(k, keyedBySite, 1)
		urlLo, urlHi, siteLo, siteHi := byURL.requests, byURL.requests, bySite.requests, bySite.requests
		var urlBack, siteBack, urlWorst, siteWorst time.Duration
		for seed := uint64(1); seed <= seeds; seed++ {
			u, s := simulate(k, keyedByURL, seed), simulate(k, keyedBySite, seed)
			urlLo, urlHi = min(urlLo, u.requests), max(urlHi, u.requests)
			siteLo, siteHi = min(siteLo, s.requests), max(siteHi, s.requests)
			urlBack, siteBack = urlBack+u.firstBack, siteBack+s.firstBack
			urlWorst, siteWorst = max(urlWorst, u.firstBack), max(siteWorst, s.firstBack)
			// Keyed by site, the site hears far less: at least four times less than
			// keyed by URL, and a small fraction of no backoff at all.
			if s.requests*4 > u.requests {
				t.Errorf("%s seed %d: keyed by site %d requests, keyed by URL %d: not far lower", k, seed, s.requests, u.requests)
			}
			if s.requests*40 > none.requests {
				t.Errorf("%s seed %d: keyed by site %d requests of %d without backoff", k, seed, s.requests, none.requests)
			}
			// Recovery is noticed within one ceiling wait (+15%) and a request, and
			// the siblings follow within one more poll.
			ceiling := policy[k][len(policy[k])-1]
			limit := min(ceiling*115/100, hostbackoff.MaxWait) + simLatency
			if s.firstBack > limit || s.allBack > limit+simInterval+simLatency {
				t.Errorf("%s seed %d: back after %v (all %v), limit %v", k, seed, s.firstBack, s.allBack, limit)
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%d–%d) | %d (%d–%d) | %s (%s) | %s (%s) |\n", k, none.requests,
			byURL.requests, urlLo, urlHi, bySite.requests, siteLo, siteHi,
			mmss(urlBack/seeds), mmss(urlWorst), mmss(siteBack/seeds), mmss(siteWorst))
	}
	t.Log("\n" + b.String())
}

func mmss(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", d/time.Minute, d%time.Minute/time.Second)
}
