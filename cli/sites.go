package cli

import (
	"context"
	"fmt"
	"time"

	"notifio/internal/api"

	"notifio/internal/model"
	"notifio/poll/words"
)

// snapshot returns the watcher's state: live from the running watcher, else
// read from the database. live says whether a watcher runs (its countdowns
// count).
func (env *Env) snapshot() (model.Snapshot, bool, error) {
	b, err := env.attach()
	if err != nil {
		return model.Snapshot{}, false, err
	}
	defer b.done()
	if c, ok := b.backend.(*api.Client); ok { // a watcher that stops answering is an error, not an empty list
		snap, err := c.SnapshotErr(context.Background())
		return snap, b.live, err
	}
	return b.Snapshot(), b.live, nil
}

func cmdSites(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "sites", "notifio sites [--json]\n\nShows each site's backoff state: why it is waiting, the status and signal that decided it, and when the next probe goes.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	snap, _, err := env.snapshot()
	if err != nil {
		return err
	}
	if env.JSON {
		type site struct {
			Site         string        `json:"site"`
			Waiting      bool          `json:"waiting"`
			Kind         model.Refusal `json:"kind,omitempty"` // its name; none when clear
			Rung         int           `json:"rung,omitempty"`
			NextProbe    time.Time     `json:"next_probe,omitzero"`
			RetryAfterS  float64       `json:"retry_after_s,omitempty"`
			LastStatus   int           `json:"last_status,omitempty"`
			LastSignal   string        `json:"last_signal,omitempty"`
			Searches     int           `json:"searches"`
			SuccessRate  float64       `json:"success_rate"`
			AvgResponseS float64       `json:"avg_response_s"`
			NeedsLogin   bool          `json:"needs_login,omitempty"`
		}
		out := []site{}
		for _, s := range snap.Sites {
			out = append(out, site{s.Site, s.Waiting, s.Kind, s.Rung, s.NextProbe, s.RetryAfter.Seconds(),
				s.LastStatus, s.LastSignal, s.Searches, s.SuccessRate, s.AvgResponse.Seconds(), s.NeedsLogin})
		}
		return env.printJSON(out)
	}
	if len(snap.Sites) == 0 {
		fmt.Fprintln(env.Stdout, "No sites yet.")
		return nil
	}
	for _, s := range snap.Sites {
		fmt.Fprintln(env.Stdout, printable(words.SiteLine(s, snap.At)))
	}
	return nil
}
