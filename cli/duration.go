package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// reDays is a count of days at the start of a duration ("8d", "1d12h"):
// people write days, Go's durations stop at hours.
var reDays = regexp.MustCompile(`^(\d{1,4})d`)

// parseSpan reads a duration as people write it on a command line: 30s,
// 10m, 2h, 1h30m, 3d, 1d12h. Anything else is refused in words.
func parseSpan(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var days time.Duration
	if m := reDays.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		days, s = time.Duration(n)*24*time.Hour, s[len(m[0]):]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || (days > 0 && strings.HasPrefix(s, "-")) {
		return 0, fmt.Errorf("%q is not a duration: write it as 30s, 10m, 2h, 1h30m or 3d", clipArg(s))
	}
	return days + d, nil
}

// spanFlag is a duration flag read by parseSpan.
type spanFlag struct{ v *time.Duration }

func (f spanFlag) String() string {
	if f.v == nil {
		return ""
	}
	return f.v.String()
}

func (f spanFlag) Set(s string) error {
	d, err := parseSpan(s)
	if err != nil {
		return err
	}
	*f.v = d
	return nil
}

// durationFlag defines a duration flag that reads days too and says what is
// wrong in words (the flag package says only "parse error").
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	v := def
	fs.Var(spanFlag{&v}, name, usage)
	return &v
}

// clipArg keeps an echoed argument short: a 120 KB argument is not repeated
// in its own error.
func clipArg(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
