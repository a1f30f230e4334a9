package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"notifio/notify"

	"notifio/internal/model"
)

const pushUsage = `notifio push add URL [--name N] [--searches ID,…] [--events new_listings,price_drop,health] [--quiet 23:00-07:00]
       notifio push list [--json]
       notifio push test [NAME]
       notifio push remove NAME

URLs: ntfy://ntfy.sh/TOPIC (?scheme=http for a plain-HTTP server), telegram://TOKEN@telegram?chats=CHAT_ID,
pushover://shoutrrr:API_TOKEN@USER_KEY, gotify://HOST/TOKEN, discord://TOKEN@WEBHOOK_ID,
slack://hook:WEBHOOK_TOKEN, matrix://USER:PASSWORD@HOST, generic://HOST/PATH (a webhook).
The URL is kept in the system keyring, never in the database.`

func cmdPush(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "Usage: "+pushUsage)
		return usagef("say what to do: add, list, test or remove")
	}
	switch args[0] {
	case "add":
		return cmdPushAdd(env, args[1:])
	case "list", "ls":
		return cmdPushList(env, args[1:])
	case "test":
		return cmdPushTest(ctx, env, args[1:])
	case "remove", "rm":
		return cmdPushRemove(env, args[1:])
	}
	return usagef("unknown push command %q; use add, list, test or remove", args[0])
}

func cmdPushAdd(env *Env, args []string) error {
	fs := newFlags(env, "push add", pushUsage)
	name := fs.String("name", "", "the channel's name (default: the service, e.g. ntfy)")
	searches := fs.String("searches", "", "only these searches (IDs from \"notifio search list\", comma-separated; default: all)")
	events := fs.String("events", "", "what the channel gets: new_listings, price_drop, health (comma-separated; default: all three)")
	quiet := fs.String("quiet", "", "quiet hours, local time, e.g. 23:00-07:00: pushes wait and arrive as one summary")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give exactly one service URL, e.g. ntfy://ntfy.sh/your-topic (quote it in the shell)")
	}
	evs, err := parseEvents(*events)
	if err != nil {
		return err
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	in := model.NewChannel{Name: *name, URL: pos[0], Searches: splitList(*searches), Events: evs, Quiet: *quiet}
	ch, warn, err := b.AddChannel(in)
	var noSearch *notify.NoSearchError
	switch {
	case errors.As(err, &noSearch):
		return fmt.Errorf("%w (see \"notifio search list\")", err)
	case errors.Is(err, model.ErrExists):
		if ch.Name == "" { // the watcher sends no channel with an error
			ch.Name = in.Name
		}
		return fmt.Errorf("a channel named %q exists already: choose another --name, or \"notifio push remove %s\" first", ch.Name, ch.Name)
	case err != nil:
		return err
	}
	if warn != "" {
		fmt.Fprintln(env.Stderr, "notifio: "+warn)
	}
	fmt.Fprintf(env.Stdout, "Added push channel %q (%s). Send a test with: notifio push test %s\n", ch.Name, ch.Display, ch.Name)
	return nil
}

func parseEvents(s string) ([]model.Event, error) {
	var out []model.Event
	for _, e := range splitList(s) {
		ev := model.Event(strings.ReplaceAll(strings.ToLower(e), "-", "_"))
		if !slices.Contains(model.Events, ev) {
			return nil, usagef("unknown event %q: use new_listings, price_drop or health", e)
		}
		out = append(out, ev)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func cmdPushList(env *Env, args []string) error {
	fs := newFlags(env, "push list", "notifio push list [--json]")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	chans, err := channels(b)
	if err != nil {
		return err
	}
	if env.JSON {
		if chans == nil {
			chans = []model.Channel{}
		}
		return env.printJSON(chans)
	}
	if len(chans) == 0 {
		fmt.Fprintln(env.Stdout, "No push channels. Add one with: notifio push add 'ntfy://ntfy.sh/your-topic'")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSERVICE\tURL\tSEARCHES\tGETS\tQUIET")
	for _, c := range chans {
		searches, events := "all", "all"
		if len(c.Searches) > 0 {
			searches = strings.Join(c.Searches, ",")
		}
		if len(c.Events) > 0 {
			var es []string
			for _, e := range c.Events {
				es = append(es, string(e))
			}
			events = strings.Join(es, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Service, c.Display, searches, events, orDash(c.Quiet))
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func cmdPushTest(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "push test", "notifio push test [NAME]\n\nSends a test push to one channel (or all) and says exactly what went wrong if it fails.")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) > 1 {
		return usagef("give the name of one channel, or none to test them all")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	chans, err := channels(b)
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		chans = slices.DeleteFunc(chans, func(c model.Channel) bool { return c.Name != pos[0] })
		if len(chans) == 0 {
			return fmt.Errorf("there is no push channel named %q (see \"notifio push list\")", pos[0])
		}
	}
	if len(chans) == 0 {
		return errors.New("there are no push channels yet: add one with \"notifio push add URL\"")
	}
	failed := 0
	for _, c := range chans {
		err := testOne(ctx, b, c.Name)
		if err != nil {
			failed++
			fmt.Fprintf(env.Stderr, "notifio: %s: %s\n", c.Name, userMessage(err))
			continue
		}
		fmt.Fprintf(env.Stdout, "Test push sent to %s. Check your phone.\n", c.Name)
	}
	if failed > 0 {
		return &ExitError{Code: 1}
	}
	return nil
}

// channels are the saved push channels.
func channels(b backend) ([]model.Channel, error) {
	states, err := b.Channels()
	if err != nil {
		return nil, err
	}
	out := make([]model.Channel, len(states))
	for i, s := range states {
		out[i] = s.Channel
	}
	return out, nil
}

func testOne(ctx context.Context, b backend, name string) error {
	err := b.TestChannel(ctx, name)
	if errors.Is(err, model.ErrNoServiceURL) {
		return fmt.Errorf("%w with \"notifio push add\"", err)
	}
	return err
}

func cmdPushRemove(env *Env, args []string) error {
	fs := newFlags(env, "push remove", "notifio push remove NAME\n\nRemoves the channel, its service URL from the keyring, and its unsent pushes.")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give the name of one push channel (see \"notifio push list\")")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	warn, err := b.RemoveChannel(pos[0])
	if errors.Is(err, model.ErrNotFound) {
		return fmt.Errorf("there is no push channel named %q (see \"notifio push list\")", pos[0])
	} else if err != nil {
		return err
	}
	if warn != "" {
		fmt.Fprintln(env.Stderr, "notifio: "+warn)
	}
	fmt.Fprintf(env.Stdout, "Removed push channel %q.\n", pos[0])
	return nil
}
