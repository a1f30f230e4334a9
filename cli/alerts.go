package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"notifio/internal/model"

	"notifio/poll/words"
)

func cmdAlerts(_ context.Context, env *Env, args []string) error {
	if len(args) == 0 || (args[0] != "show" && args[0] != "set") {
		fmt.Fprintln(env.Stderr, "Usage: notifio alerts show\n       notifio alerts set [--on|--off] [--after DURATION] [--remind DURATION|off] [--summary on|off] [--summary-at 20:00]")
		return usagef("say what to do: show or set")
	}
	if args[0] == "set" {
		return cmdAlertsSet(env, args[1:])
	}
	fs := newFlags(env, "alerts show", "notifio alerts show [--json]\n\nShows when Notifio tells you that a search stopped working.")
	if err := parseNoArgs(fs, args[1:]); err != nil {
		return err
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	a, err := alertSettings(b)
	if err != nil {
		return err
	}
	if env.JSON {
		return env.printJSON(alertsJSON(a))
	}
	fmt.Fprintln(env.Stdout, words.AlertSettingsWords(a))
	return nil
}

// alertSettings are the backend's alert settings; a watcher that stops
// answering is an error, never the defaults (which `alerts set` would save).
func alertSettings(b backend) (model.AlertSettings, error) {
	if c, ok := b.(interface {
		AlertSettingsErr() (model.AlertSettings, error)
	}); ok {
		return c.AlertSettingsErr()
	}
	return b.AlertSettings(), nil
}

func cmdAlertsSet(env *Env, args []string) error {
	fs := newFlags(env, "alerts set", "notifio alerts set [--on|--off] [--after DURATION] [--remind DURATION|off] [--summary on|off] [--summary-at HH:MM]")
	on := fs.Bool("on", false, "turn health alerts on")
	off := fs.Bool("off", false, "turn health alerts off (the window still shows troubles)")
	after := durationFlag(fs, "after", 0, "how long a search may be blocked or show no results before you are told (e.g. 1h, 30m)")
	remind := fs.String("remind", "", "how often a reminder goes while it lasts (e.g. 24h), or off")
	summary := fs.String("summary", "", "a daily \"still watching\" message: on or off")
	summaryAt := fs.String("summary-at", "", "when the daily summary goes, e.g. 20:00")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *on && *off {
		return usagef("choose --on or --off, not both")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	a, err := alertSettings(b)
	if err != nil {
		return err
	}
	a, err = applyAlertFlags(fs, a, *off, *after, *remind, *summary, *summaryAt)
	if err != nil {
		return err
	}
	if err := b.SetAlertSettings(a); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, words.AlertSettingsWords(a))
	return nil
}

// applyAlertFlags changes only what was given on the command line.
func applyAlertFlags(fs *flag.FlagSet, a model.AlertSettings, off bool, after time.Duration, remind, summary, summaryAt string) (model.AlertSettings, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["on"] || given["off"] {
		a.Off = off
	}
	if given["after"] {
		if after <= 0 { // 0 is how storage says "the default": never silently 1 h
			return a, usagef("--after %s: give how long, between 1 minute and 7 days (e.g. 30m or 1h)", after)
		}
		a.After = after
	}
	if given["remind"] {
		if strings.EqualFold(remind, "off") {
			a.NoRemind, a.Remind = true, 0
		} else {
			d, err := parseSpan(remind)
			if err != nil || d <= 0 {
				return a, usagef("--remind %q: write a duration such as 24h, 12h or 2d, or off", clipArg(remind))
			}
			a.NoRemind, a.Remind = false, d
		}
	}
	if given["summary"] {
		switch strings.ToLower(summary) {
		case "on":
			a.Summary = true
		case "off":
			a.Summary = false
		default:
			return a, usagef("--summary %q: say on or off", summary)
		}
	}
	if given["summary-at"] {
		a.SummaryAt = summaryAt
	}
	return a, a.Validate()
}

// cmdStatus prints every search's health; exit 1 when something needs the
// user (for cron and monitoring).
func cmdStatus(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "status", "notifio status [--json]\n\nEvery search's health on one screen. Exit code 0 when all are healthy, 1 when something needs you.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	snap, _, err := env.snapshot()
	if err != nil {
		return err
	}
	troubled := troubles(snap)
	if env.JSON {
		type row struct {
			ID     string       `json:"id"`
			Name   string       `json:"name"`
			Site   string       `json:"site"`
			Health model.Health `json:"health"`
		}
		out := struct {
			Healthy  bool                   `json:"healthy"`
			Searches []row                  `json:"searches"`
			Failing  []model.ChannelFailure `json:"failing_channels,omitempty"`
		}{Healthy: troubled == 0, Searches: []row{}, Failing: snap.Outbox.Failing}
		for _, s := range snap.Searches {
			out.Searches = append(out.Searches, row{s.ID, s.Name, s.Site, s.Health})
		}
		if err := env.printJSON(out); err != nil {
			return err
		}
	} else {
		printStatus(env, snap, troubled)
	}
	if troubled > 0 {
		return &ExitError{Code: 1}
	}
	return nil
}

func troubles(snap model.Snapshot) int {
	n := len(snap.Outbox.Failing)
	for _, s := range snap.Searches {
		if s.Health.Kind.NeedsUser() && s.Health.Kind != model.HealthDelivery {
			n++
		}
	}
	return n
}

func printStatus(env *Env, snap model.Snapshot, troubled int) {
	if len(snap.Searches) == 0 {
		fmt.Fprintln(env.Stdout, "No searches yet. Add one: notifio search add URL")
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	if len(snap.Searches) > 0 {
		fmt.Fprintln(tw, "ID\tNAME\tHEALTH")
	}
	for _, s := range snap.Searches {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", printable(s.ID), printable(s.Name), printable(words.HealthLine(s.Health, snap.At)))
	}
	_ = tw.Flush()
	for _, f := range snap.Outbox.Failing {
		fmt.Fprintf(env.Stdout, "\n%s: %s\n  %s\n", words.ChannelProblem(f.Channel), printable(f.Error), printable(f.Hint))
	}
	for _, s := range snap.Searches {
		if s.Health.Kind.NeedsUser() && s.Health.Hint != "" {
			fmt.Fprintf(env.Stdout, "\n%s — what you can do: %s\n", printable(s.Name), printable(s.Health.Hint))
		}
	}
	if troubled == 0 {
		fmt.Fprintln(env.Stdout, "\nAll healthy.")
	}
}
