package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"

	"notifio/notify"
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
		db, _, err := env.openDB()
		if err != nil {
			return err
		}
		defer db.Close()
		cfg, err := notify.NewEmailSettings(db, nil).Load()
		if err != nil {
			return err
		}
		if env.JSON {
			return env.printJSON(cfg)
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
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long")
	if _, err := parseInterleaved(fs, args[1:]); err != nil {
		return flagErr(err)
	}
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	email := notify.NewEmailSettings(db, newSecrets(dir))
	cfg, err := email.Load()
	db.Close()
	if err != nil {
		return err
	}
	if cfg.Host == "" {
		return fmt.Errorf("email is not set up yet: run \"notifio email set --help\"")
	}
	pw, err := email.Password(cfg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := notify.SendTestEmail(ctx, cfg, pw); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Test email sent to %s. Check the inbox (and the spam folder).\n", strings.Join(cfg.To, ", "))
	// The settings work: emails that needed attention get another go.
	return env.requeueEmails()
}

func cmdEmailRetry(env *Env, args []string) error {
	fs := newFlags(env, "email retry", "notifio email retry\n\nPuts every email that needs attention back in the queue; the next \"notifio once\" or \"notifio run\" sends it.")
	if _, err := parseInterleaved(fs, args); err != nil {
		return flagErr(err)
	}
	return env.requeueEmails()
}

// requeueEmails puts the emails that need attention back in the queue and says
// how many.
func (env *Env) requeueEmails() error {
	db, _, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := notify.RequeueEmails(db, time.Now())
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
	if _, err := parseInterleaved(fs, args); err != nil {
		return flagErr(err)
	}
	var cfg notify.Config
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
		cfg.Security = notify.Security(*security)
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
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	warn, err := notify.NewEmailSettings(db, newSecrets(dir)).Save(cfg, password)
	if err != nil {
		return err
	}
	n, err := notify.RequeueEmails(db, time.Now())
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
func presetByName(name string) (notify.Preset, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, p := range notify.Presets {
		n := strings.ToLower(p.Name)
		if p.Host != "" && (strings.HasPrefix(n, name) || strings.Contains(strings.ToLower(p.Host), name)) {
			return p, true
		}
	}
	return notify.Preset{}, false
}
