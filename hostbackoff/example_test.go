package hostbackoff_test

import (
	"fmt"
	"strings"
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// compact writes a ladder step the way people say it: 30s, 1m, 60m.
func compact(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// The ladders the watcher gives its registry (model.DefaultLadders): this is
// the policy.
func ExampleLadders() {
	for _, k := range model.Refusals() {
		steps := make([]string, 0, len(policy[k]))
		for _, d := range policy[k] {
			steps = append(steps, compact(d))
		}
		fmt.Printf("%s: %s\n", k, strings.Join(steps, " → "))
	}
	// Output:
	// challenge: 1m → 3m → 8m → 15m → 30m
	// rate_limited: 2m → 5m → 15m → 30m
	// denied: 5m → 15m → 30m → 60m
	// error: 30s → 2m → 5m
}

// Five searches on one portal share one wait, and one of them probes when it ends.
func ExampleRegistry() {
	noJitter := func() float64 { return 0.5 } // the factor 0.85 + 0.5×0.3 = 1
	reg := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy, Random: noJitter})
	site := model.SiteOf("www.wohnungen.example.de:443")
	t0 := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	show := func(d hostbackoff.Decision) {
		fmt.Printf("%s until %s: %s\n", d.Verdict, d.Until.Format("15:04:05"), d.Reason)
	}

	fmt.Println("site:", site)
	fmt.Println("retry at:", reg.Record(site, model.RefusalChallenge, 0, t0).Format("15:04:05"))
	show(reg.Admit(site, "flats-under-900", t0.Add(30*time.Second)))
	show(reg.Admit(site, "flats-under-900", t0.Add(time.Minute)))
	show(reg.Admit(site, "two-rooms-north", t0.Add(time.Minute+5*time.Second)))
	fmt.Println("refused again, retry at:", reg.Record(site, model.RefusalChallenge, 0, t0.Add(time.Minute+2*time.Second)).Format("15:04:05"))
	// Output:
	// site: example.de
	// retry at: 12:01:00
	// wait until 12:01:00: backing off after challenge (rung 1 of 5)
	// probe until 12:03:00: probe after challenge (rung 1 of 5)
	// wait until 12:03:00: waiting for the probe
	// refused again, retry at: 12:04:02
}
