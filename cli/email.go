package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"

	"notifio/internal/model"
)

func cmdEmail(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || (args[0] != "set" && args[0] != "test" && args[0] != "show" && args[0] != "retry") {
		fmt.Fprintln(env.Stderr, "Usage: notifio email set --host H --port P --security starttls|tls|none --user U --from F --to T[,T2]\n       notifio email test\n       notifio email show\n       notifio email retry")
		return usagef("say what to do: set, test, show or retry")
	}
	switch args[0] {
	case "set":
		return cmdEmailSet(env, args[1:])
	case "retry":
		return cmdEmailRetry(env, args[1:])
	case "show":
		if err := parseNoArgs(newFlags(env, "email show", "notifio email show [--json]"), args[1:]); err != nil {
			return err
		}
		b, err := env.attach()
		if err != nil {
			return err
		}
		defer b.done()
		cfg, err := b.EmailConfig()
		if err != nil {
			return err
		}
		if env.JSON {
			return env.printJSON(emailJSON(cfg))
		}
		if cfg.Host == "" {
			fmt.Fprintln(env.Stdout, "Email is not set up. Run: notifio email set --help")
			return nil
		}
		fmt.Fprintf(env.Stdout, "Server: %s:%d (%s)\nUser:   %s\nFrom:   %s\nTo:     %s\n", printable(cfg.Host), cfg.Port, printable(string(cfg.Security)),
			printable(cfg.Username), printable(cfg.From), printable(strings.Join(cfg.To, ", ")))
		return nil
	}
	fs := newFlags(env, "email test", "notifio email test\n\nSends a test email with the saved settings and says exactly what went wrong if it fails.")
	timeout := durationFlag(fs, "timeout", 30*time.Second, "give up after this long")
	if err := parseNoArgs(fs, args[1:]); err != nil {
		return err
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	cfg, err := b.EmailConfig()
	if err != nil {
		return err
	}
	if cfg.Host == "" {
		return fmt.Errorf("email is not set up yet: run \"notifio email set --help\"")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	// A test that gets through with the saved settings queues again the
	// emails that needed attention (the settings work now).
	n, err := requeued(b, func() error { return b.SendTestEmail(ctx, cfg, "") })
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Test email sent to %s. Check the inbox (and the spam folder).\n", strings.Join(cfg.To, ", "))
	printRequeued(env, n)
	return nil
}

// requeued runs op, which may put the emails that needed attention back in
// the queue, and says how many went back.
func requeued(b backend, op func() error) (int, error) {
	before := b.Snapshot().Outbox.NeedsAttention
	if err := op(); err != nil {
		return 0, err
	}
	return max(0, before-b.Snapshot().Outbox.NeedsAttention), nil
}

func cmdEmailRetry(env *Env, args []string) error {
	fs := newFlags(env, "email retry", "notifio email retry\n\nPuts every email that needs attention back in the queue; the next \"notifio once\" or \"notifio run\" sends it.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	return env.requeueEmails()
}

// requeueEmails puts the emails that need attention back in the queue and says
// how many.
func (env *Env) requeueEmails() error {
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	n, err := requeued(b, b.RetryOutbox)
	if err != nil {
		return err
	}
	printRequeued(env, n)
	return nil
}

func printRequeued(env *Env, n int) {
	if n > 0 {
		fmt.Fprintf(env.Stdout, "%d email(s) that needed attention are queued again; the next \"notifio once\" or \"notifio run\" sends them.\n", n)
	}
}

func cmdEmailSet(env *Env, args []string) error {
	fs := newFlags(env, "email set", "notifio email set [--preset gmail|outlook|fastmail|icloud] --host H --port P --security starttls|tls|none --user U --from F --to T[,T2] [--password-stdin]\n\nThe password is read from standard input with --password-stdin (or from NOTIFIO_SMTP_PASSWORD) and kept in the OS keyring.")
	preset := fs.String("preset", "", "fill host, port and security for a known provider: gmail, outlook, fastmail, icloud")
	host := fs.String("host", "", "SMTP server name")
	port := fs.Int("port", 0, "SMTP port (587 for STARTTLS, 465 for TLS)")
	security := fs.String("security", "", "starttls, tls or none (none only for a server on this computer)")
	user := fs.String("user", "", "SMTP user name (usually your email address)")
	from := fs.String("from", "", "sender address (default: the user name)")
	to := fs.String("to", "", "where to send alerts; several separated by commas")
	pin := fs.String("pin-cert", "", "SHA-256 fingerprint (hex) of a self-signed server certificate to trust, e.g. a local bridge")
	pwStdin := fs.Bool("password-stdin", false, "read the password from standard input")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	var cfg model.Config
	if *preset != "" {
		p, ok := presetByName(*preset)
		if !ok {
			return usagef("unknown preset %q; use gmail, outlook, fastmail or icloud", *preset)
		}
		cfg.Host, cfg.Port, cfg.Security = p.Host, p.Port, p.Security
	}
	if *host != "" {
		cfg.Host = *host
	}
	if *port != 0 {
		cfg.Port = *port
	}
	if *security != "" {
		cfg.Security = model.Security(*security)
	}
	cfg.Username = *user
	cfg.From = *from
	if cfg.From == "" {
		cfg.From = cfg.Username
	}
	for _, t := range strings.Split(*to, ",") {
		if t = strings.TrimSpace(t); t != "" {
			cfg.To = append(cfg.To, t)
		}
	}
	cfg.PinnedCertSHA256 = *pin
	password := ""
	if *pwStdin {
		line, err := bufio.NewReader(env.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("could not read the password from standard input: %w", err)
		}
		password = strings.TrimRight(line, "\r\n")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	var warn string
	n, err := requeued(b, func() (err error) { warn, err = b.SetEmailConfig(cfg, password); return err })
	if err != nil {
		return err
	}
	if warn != "" {
		fmt.Fprintln(env.Stderr, "Warning: "+warn)
	}
	fmt.Fprintf(env.Stdout, "Email settings saved (%s:%d, %s). Send a test: notifio email test\n", cfg.Host, cfg.Port, cfg.Security)
	printRequeued(env, n)
	return nil
}

// presetByName finds a provider preset by a short name the user types.
func presetByName(name string) (model.Preset, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, p := range model.Presets {
		n := strings.ToLower(p.Name)
		if p.Host != "" && (strings.HasPrefix(n, name) || strings.Contains(strings.ToLower(p.Host), name)) {
			return p, true
		}
	}
	return model.Preset{}, false
}
