// Package cli is Notifio's command line: the same operations the window offers,
// for headless boxes and scripts. It never imports Fyne.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"notifio/poll"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/poll/words"

	"notifio/internal/datadir"

	"notifio/internal/secrets"
)

// Env is what a command runs with: its output streams and how to reach the data.
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// DataDir is the data directory from --data or NOTIFIO_DATA; "" means the
	// per-user default.
	DataDir string
	// JSON asks for machine-readable output where the command has it.
	JSON bool
	// Connect is the socket of the watcher to attach to, from --connect or
	// NOTIFIO_CONNECT ("unix:PATH"); "" means the data directory's watcher.
	Connect string
	// Version is the program's version.
	Version string
	// Logger receives logs of long-running commands.
	Logger *slog.Logger
	// MemoryLimit, when above 0, is the Go runtime's soft memory limit for the
	// commands that poll (run, once), unless GOMEMLIMIT is set: the garbage
	// collector then works harder when a hundred sites are read at once, and
	// RSS stays under the budget in docs/PERFORMANCE.md. main sets it; tests,
	// which share the process, do not.
	MemoryLimit int64
	// OnWatching, when set, is called by run once the watcher serves its
	// API, before it polls (the tray of `notifio --hidden` starts there);
	// quit stops the watcher as SIGTERM does. It must not block.
	OnWatching func(w *Watcher, quit func())
	// Notify, when set, shows the watcher's desktop notifications (the tray's
	// watcher sets it; run without it shows none).
	Notify func(title, body string)
	// Executable is the program `autostart on` makes start at login; "" means
	// the running binary.
	Executable string
	// dbOptions are the storage options of every database the command opens;
	// the zero value is the production setting (tests set a size cap).
	dbOptions storage.Options
}

// applyMemoryLimit sets the runtime's soft memory limit for a watcher of the
// given number of searches (memoryLimitFor), unless GOMEMLIMIT is set.
func (env *Env) applyMemoryLimit(searches int) {
	if env.MemoryLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimitFor(env.MemoryLimit, searches))
	}
}

// memoryLimitFor is base up to 1,000 searches (what docs/PERFORMANCE.md
// measures), plus 16 KiB for each search beyond: a limit below the live heap
// would make the garbage collector run all the time.
func memoryLimitFor(base int64, searches int) int64 {
	return base + int64(max(0, searches-1000))*16<<10
}

// ErrUsage marks an error in how a command was called; main prints usage for it.
var ErrUsage = errors.New("cli: usage")

// usagef is a mistake in how a command was called, in words (exit 2).
func usagef(format string, args ...any) error {
	return &model.UserError{Msg: fmt.Sprintf(format, args...), Err: ErrUsage}
}

// ExitError carries a specific exit code (e.g. `once` when an email needs
// attention).
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// IsCommand reports whether args[0] is a command-line subcommand (otherwise the
// window opens).
func IsCommand(args []string) bool {
	args, _, _ = SplitConnect(args)
	rest, _, _, _ := SplitGlobal(args)
	if len(rest) == 0 {
		return false
	}
	_, ok := commands[rest[0]]
	return ok || rest[0] == "help" || rest[0] == "--help" || rest[0] == "-h" ||
		rest[0] == "--version" || rest[0] == "version"
}

// errEmptyData refuses `--data ""`, which would silently mean the default folder.
var errEmptyData = usagef("--data was given an empty directory; name the folder, or leave --data out for the default")

// SplitGlobal takes --data DIR and --json out of args wherever they stand
// (before or after the subcommand) and returns the rest.
func SplitGlobal(args []string) (rest []string, dataDir string, jsonOut bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--data" || a == "-data":
			if i+1 >= len(args) {
				return nil, "", false, usagef("--data needs a directory")
			}
			dataDir = args[i+1]
			i++
			if strings.TrimSpace(dataDir) == "" {
				return nil, "", false, errEmptyData
			}
		case strings.HasPrefix(a, "--data=") || strings.HasPrefix(a, "-data="):
			dataDir = a[strings.Index(a, "=")+1:]
			if strings.TrimSpace(dataDir) == "" {
				return nil, "", false, errEmptyData
			}
		case a == "--json" || a == "-json":
			jsonOut = true
		case a == "--":
			rest = append(rest, args[i:]...)
			return rest, dataDir, jsonOut, nil
		default:
			rest = append(rest, a)
		}
	}
	return rest, dataDir, jsonOut, nil
}

type command struct {
	summary string
	usage   string
	run     func(ctx context.Context, env *Env, args []string) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"run":      {"watch every search until stopped (Ctrl-C / SIGTERM), headless", "notifio run", cmdRun},
		"once":     {"check every search once, send the emails, exit (for cron)", "notifio once", cmdOnce},
		"search":   {"add, list, remove, pause or resume searches", "notifio search add|list|remove|pause|resume ...", cmdSearch},
		"email":    {"set up email and send a test email", "notifio email set|test|show|retry ...", cmdEmail},
		"push":     {"alerts on the phone: ntfy, Telegram, Pushover, Gotify, …", "notifio push add|list|test|remove ...", cmdPush},
		"sites":    {"show each site's backoff state and why", "notifio sites [--json]", cmdSites},
		"status":   {"every search's health; exit 1 when something needs you", "notifio status [--json]", cmdStatus},
		"alerts":   {"when Notifio tells you a search stopped working", "notifio alerts show|set ...", cmdAlerts},
		"listings": {"show the listings seen, newest first", "notifio listings [SEARCH_ID] [--json]", cmdListings},
		"check":    {"one dry-run poll of a URL, nothing saved", "notifio check [--json] [--item SEL --link SEL --title SEL --price SEL] URL", cmdCheck},
		"extract":  {"run extraction on a saved page", "notifio extract [--json] --url PAGE_URL [--item SEL --link SEL --title SEL --price SEL] FILE", cmdExtract},
	}
	commands["autostart"] = command{"start the watcher (with its tray icon) when you log in", autostartUsage, cmdAutostart}
	commands["desktop"] = command{"show, or turn on or off, desktop notifications", "notifio desktop [on|off]", cmdDesktop}
	commands["quit"] = command{"stop the running watcher (as its tray icon's Quit does)", "notifio quit", cmdQuit}
}

// Run runs one command line (without the program name) and returns the exit
// code. Errors are printed in plain words.
func Run(ctx context.Context, env *Env, args []string) int {
	args, connect, err := SplitConnect(args)
	var rest []string
	var dir string
	var js bool
	if err == nil {
		rest, dir, js, err = SplitGlobal(args)
	}
	if err == nil {
		dir = datadir.Given(dir)
		if connect == "" {
			connect = os.Getenv(connectEnv)
		}
		env.DataDir, env.JSON = dir, env.JSON || js
		if connect != "" {
			env.Connect = connect
		}
		err = dispatch(ctx, env, rest)
	}
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Msg != "" {
			fmt.Fprintln(env.Stderr, ee.Msg)
		}
		return ee.Code
	}
	fmt.Fprintln(env.Stderr, "notifio: "+userMessage(err))
	if errors.Is(err, ErrUsage) {
		return 2
	}
	return 1
}

// userMessage is err as the user reads it: the words of the *model.UserError
// (or model.FieldError) in it, however wrapped. Any other error is printed
// whole: nobody worded it for the user, and on a headless box standard error
// is the log, where the detail is what helps.
func userMessage(err error) string {
	if w, ok := words.UserWords(err); ok {
		return w
	}
	return err.Error()
}

func dispatch(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		printUsage(env.Stdout)
		return nil
	}
	if args[0] == "--version" || args[0] == "version" {
		fmt.Fprintln(env.Stdout, "notifio", env.Version)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		printUsage(env.Stderr)
		return usagef("unknown command %q", args[0])
	}
	return c.run(ctx, env, args[1:])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, `Notifio watches search-result pages and tells you when a new listing appears.

Usage:
  notifio                      open the window
  notifio COMMAND [options]    run headless

Commands:`)
	for _, name := range []string{"run", "once", "search", "status", "alerts", "email", "push", "sites", "listings", "check", "extract", "autostart"} {
		fmt.Fprintf(w, "  %-9s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, `
Options for every command:
  --data DIR   the data directory (or NOTIFIO_DATA); default: the per-user config dir
  --connect unix:PATH
               talk to the watcher on this socket (or NOTIFIO_CONNECT), e.g. one
               on another machine forwarded with ssh -L (see the README)
  --json       machine-readable output where it makes sense
  --help       help for a command, e.g. "notifio search add --help"
  --version    print the version`)
}

// parseInterleaved parses flags that may stand before, between or after the
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs parses the flags of a command that takes no positional
// arguments, and refuses any: "notifio run extra" is a mistake, not a run.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) > 0 {
		return usagef("%q: \"notifio %s\" takes no arguments here, only options (see \"notifio %s --help\")", clipArg(pos[0]), fs.Name(), fs.Name())
	}
	return nil
}

func newFlags(env *Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "Usage: "+usage)
		fs.PrintDefaults()
	}
	return fs
}

// flagErr turns -help into a clean exit and other flag errors into usage errors.
func flagErr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return &ExitError{Code: 0}
	}
	return usagef("%v", err)
}

// dataDir returns the data directory to use.
func (env *Env) dataDir() (string, error) {
	return datadir.Resolve(env.DataDir)
}

// alreadyRunningHint says what to do when another Notifio holds the database
// and this command cannot go through it (run and once need the database
// itself; a Notifio older than its control API answers no command).
const alreadyRunningHint = "This command needs the database it holds. Stop it first " +
	"(notifio quit, Ctrl-C where \"notifio run\" runs, or Quit from Notifio's tray icon), then run this again. " +
	"While it runs, the other commands go through it."

// openDB opens the database; the caller closes it. When another process holds
// it, the error says so and what to do.
func (env *Env) openDB() (*storage.DB, string, error) {
	dir, err := env.dataDir()
	if err != nil {
		return nil, "", err
	}
	db, err := storage.Open(dir, env.dbOptions)
	if errors.Is(err, storage.ErrAlreadyRunning) {
		return nil, dir, env.alreadyRunning(dir, err)
	}
	if err != nil {
		return nil, dir, err
	}
	if rec := db.Recovered(); rec != nil {
		fmt.Fprintln(env.Stderr, "notifio: "+words.RecoveryWords(rec))
	}
	return db, dir, nil
}

func (env *Env) printJSON(v any) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// newSecrets returns the password store for a data directory.
func newSecrets(dir string) *secrets.Secrets { return secrets.NewSecrets(dir) }

// serviceOptions are the options of a watcher for a data directory.
func (env *Env) serviceOptions(dir string) poll.Options {
	return poll.Options{DataDir: dir, Logger: env.Logger, Notify: env.Notify}
}
