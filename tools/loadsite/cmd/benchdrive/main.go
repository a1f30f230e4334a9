// Command benchdrive drives the performance figures of docs/PERFORMANCE.md
// (issue 7). tools/loadsite/bench.sh calls it; each subcommand is usable alone:
//
//	benchdrive seed -data DIR -urls FILE [-per-site 10] [-interval 60s] [-smtp 127.0.0.1:PORT]
//
// adds PER-SITE searches (BASE/search/J) for every base URL in FILE straight
// through storage.Open + DB.AddSearch (one database open instead of one per
// `notifio search add`), and, with -smtp, an unencrypted loopback SMTP config.
//
//	benchdrive headless -bin build/notifio [-sites 100] [-per-site 10] [-interval 60s]
//	    [-dur 10m] [-refuse "3:429,4:challenge,5:403"] [-target-new 120] [-out FILE.json]
//
// starts a loadsite farm and an SMTP sink (emersion/go-smtp) in this process,
// seeds a fresh data directory, runs `notifio run` with NOTIFIO_DEBUG_ADDR, and
// samples it every 5 s: CPU (utime+stime from /proc/PID/stat), VmRSS/VmHWM,
// goroutines and storage commits (expvar), database file size. It stops the
// watcher with SIGTERM after -dur and prints a Markdown summary: CPU-seconds per
// poll, CPU share, RSS, goroutines over time, DB growth per 1,000 polls, commits
// per poll, and the latency from the loadsite serving a page with a new listing
// to the sink accepting the email that names it (p50/p99).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"

	"notifio/notify"
	"notifio/storage"
	"notifio/tools/loadsite"

	"notifio/internal/model"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchdrive seed|headless [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "seed":
		err = cmdSeed(os.Args[2:])
	case "headless":
		err = cmdHeadless(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchdrive:", err)
		os.Exit(1)
	}
}

func cmdSeed(args []string) error {
	fs := flag.NewFlagSet("seed", flag.ExitOnError)
	data := fs.String("data", "", "data directory")
	urls := fs.String("urls", "", "file with one base URL per line")
	per := fs.Int("per-site", 10, "searches per site")
	iv := fs.Duration("interval", 60*time.Second, "interval of every search")
	smtpAddr := fs.String("smtp", "", "loopback SMTP server host:port (optional)")
	_ = fs.Parse(args)
	raw, err := os.ReadFile(*urls)
	if err != nil {
		return err
	}
	n, err := seed(*data, strings.Fields(string(raw)), *per, *iv, *smtpAddr)
	fmt.Printf("seeded %d searches in %s\n", n, *data)
	return err
}

func seed(dir string, bases []string, per int, iv time.Duration, smtpAddr string) (int, error) {
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	for i, b := range bases {
		site := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(b, "/"), "http://"), "https://")
		host, _, _ := net.SplitHostPort(site)
		for j := 0; j < per; j++ {
			_, err := db.AddSearch(model.Search{
				Name: fmt.Sprintf("Site %d search %d", i+1, j), URL: strings.TrimSuffix(b, "/") + "/search/" + strconv.Itoa(j),
				Site: host, Interval: iv,
			})
			if err != nil {
				return n, err
			}
			n++
		}
	}
	if smtpAddr != "" {
		host, port, _ := net.SplitHostPort(smtpAddr)
		p, _ := strconv.Atoi(port)
		cfg := model.Config{Host: host, Port: p, Security: model.SecurityNone,
			From: "notifio@example.org", To: []string{"me@example.org"}, Timeout: 10 * time.Second}
		if _, err := notify.NewEmailSettings(db, nil).Save(cfg, ""); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sink is an SMTP server that records when each listing id was accepted.
type sink struct {
	mu       sync.Mutex
	accepted map[string]time.Time // listing id → first accept
	messages int
}

var exposeRe = regexp.MustCompile(`/expose/(\d+)`)

func (s *sink) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }

type session struct{ s *sink }

func (*session) Reset()                               {}
func (*session) Logout() error                        { return nil }
func (*session) Mail(string, *smtp.MailOptions) error { return nil }
func (*session) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	at := time.Now() // the message is read in full: this is the accept instant
	body := strings.ReplaceAll(strings.ReplaceAll(string(b), "=\r\n", ""), "=\n", "")
	ss.s.mu.Lock()
	ss.s.messages++
	for _, m := range exposeRe.FindAllStringSubmatch(body, -1) {
		if _, ok := ss.s.accepted[m[1]]; !ok {
			ss.s.accepted[m[1]] = at
		}
	}
	ss.s.mu.Unlock()
	return nil
}

type sample struct {
	T          float64 `json:"t"` // seconds since start
	CPU        float64 `json:"cpu_s"`
	RSSKB      int64   `json:"rss_kb"`
	HWMKB      int64   `json:"hwm_kb"`
	Threads    int64   `json:"threads"`
	Goroutines int64   `json:"goroutines"`
	Commits    int64   `json:"commits"`
	Polls      int64   `json:"polls"`
	DBBytes    int64   `json:"db_bytes"`
}

func cmdHeadless(args []string) error {
	fs := flag.NewFlagSet("headless", flag.ExitOnError)
	bin := fs.String("bin", "build/notifio", "notifio binary")
	sites := fs.Int("sites", 100, "sites")
	per := fs.Int("per-site", 10, "searches per site")
	iv := fs.Duration("interval", 60*time.Second, "search interval")
	dur := fs.Duration("dur", 10*time.Minute, "how long notifio runs")
	refuse := fs.String("refuse", "3:429,4:challenge,5:403", "refusing sites")
	baseIP := fs.String("base-ip", "127.0.2.1", "first site's IP")
	pageKB := fs.Int("page-kb", 300, "page size")
	target := fs.Int("target-new", 120, "about how many new listings appear during the run")
	vary := fs.Bool("vary", true, "per-request token in every page (see loadsite.Config.Vary)")
	out := fs.String("out", "", "write samples and results as JSON here")
	keep := fs.String("data", "", "data directory (default: a fresh temporary one)")
	profile := fs.String("profile", "", "write a 30 s CPU profile of notifio, taken after the baseline cycle, here")
	_ = fs.Parse(args)

	ref, err := loadsite.ParseRefuse(*refuse)
	if err != nil {
		return err
	}
	paths := *sites * *per
	okPaths := paths - len(ref)**per
	// New listings appear after the baseline cycle: spread target of them over
	// the rest of the run.
	newEvery := time.Duration(float64(okPaths) * float64(*dur-*iv) / float64(max(*target, 1)))
	var evMu sync.Mutex
	served := map[string]time.Time{}
	farm, err := loadsite.Start(loadsite.Config{Sites: *sites, BaseIP: *baseIP, PageKB: *pageKB, Refuse: ref,
		NewEvery: newEvery, Gzip: true, Vary: *vary, OnNew: func(e loadsite.Event) {
			evMu.Lock()
			if _, ok := served[e.ID]; !ok {
				served[e.ID] = e.Served
			}
			evMu.Unlock()
		}})
	if err != nil {
		return err
	}
	defer farm.Close()

	sk := &sink{accepted: map[string]time.Time{}}
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := smtp.NewServer(sk)
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	go func() { _ = srv.Serve(sln) }()
	defer srv.Close()

	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "notifio-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if _, err := seed(dir, farm.URLs(), *per, *iv, sln.Addr().String()); err != nil {
		return err
	}
	dbg, err := freeAddr()
	if err != nil {
		return err
	}
	cmd := exec.Command(*bin, "run", "--data", dir)
	cmd.Env = append(os.Environ(), "NOTIFIO_DEBUG_ADDR="+dbg)
	logf, err := os.Create(filepath.Join(os.TempDir(), "benchdrive-notifio.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	fmt.Fprintf(os.Stderr, "benchdrive: notifio pid %d, %d searches on %d sites, new listing every %s per page, for %s\n",
		pid, paths, *sites, newEvery.Round(time.Second), *dur)

	if *profile != "" {
		go func() {
			time.Sleep(*iv + 10*time.Second)
			if err := fetchProfile(dbg, *profile); err != nil {
				fmt.Fprintln(os.Stderr, "benchdrive: profile:", err)
			}
		}()
	}
	var samples []sample
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	deadline := time.After(*dur)
	take := func() {
		s := sample{T: time.Since(start).Seconds()}
		s.CPU = procCPU(pid)
		s.RSSKB, s.HWMKB, s.Threads = procStatus(pid)
		s.Goroutines, s.Commits = debugVars(dbg)
		s.Polls, _ = farm.Stats()
		if fi, err := os.Stat(filepath.Join(dir, "notifio.db")); err == nil {
			s.DBBytes = fi.Size()
		}
		samples = append(samples, s)
	}
	loop := true
	for loop {
		select {
		case <-tick.C:
			take()
		case <-deadline:
			take()
			loop = false
		case err := <-done:
			return fmt.Errorf("notifio exited early: %v (log: %s)", err, logf.Name())
		}
	}
	// Listings served in the last seconds cannot have been emailed yet: only
	// count those served at least 15 s before the end.
	cut := time.Now().Add(-15 * time.Second)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	stopAt := time.Since(start)

	evMu.Lock()
	sk.mu.Lock()
	var lat []time.Duration
	missing := 0
	for id, t := range served {
		if t.After(cut) {
			continue
		}
		a, ok := sk.accepted[id]
		if !ok {
			missing++
			continue
		}
		lat = append(lat, a.Sub(t))
	}
	msgs := sk.messages
	sk.mu.Unlock()
	evMu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })

	res := summarize(samples, *iv, lat, missing, msgs, stopAt)
	res["searches"], res["sites"], res["interval_s"], res["dur_s"] = paths, *sites, iv.Seconds(), dur.Seconds()
	res["refusing_sites"] = len(ref)
	res["page_kb"] = *pageKB
	res["vary"] = *vary
	if *out != "" {
		raw, _ := json.MarshalIndent(map[string]any{"result": res, "samples": samples}, "", " ")
		if err := os.WriteFile(*out, raw, 0o644); err != nil {
			return err
		}
	}
	printSummary(res, samples)
	return nil
}

func pct(l []time.Duration, p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	i := int(float64(len(l)-1) * p)
	return l[i]
}

func summarize(ss []sample, iv time.Duration, lat []time.Duration, missing, msgs int, stopAt time.Duration) map[string]any {
	r := map[string]any{}
	if len(ss) < 2 {
		return r
	}
	first, last := ss[0], ss[len(ss)-1]
	// Steady state: after the first interval plus 30 s (baselines done).
	steadyFrom := iv.Seconds() + 30
	var st sample
	for _, s := range ss {
		if s.T >= steadyFrom {
			st = s
			break
		}
	}
	wall := last.T - first.T
	r["wall_s"] = wall
	r["cpu_s_total"] = last.CPU
	r["polls_total"] = last.Polls
	r["cpu_share_total_pct"] = 100 * last.CPU / last.T
	r["cpu_s_per_poll_total"] = last.CPU / float64(max(last.Polls, 1))
	if st.T > 0 && last.T > st.T {
		polls := last.Polls - st.Polls
		r["steady_from_s"] = st.T
		r["steady_polls"] = polls
		r["steady_polls_per_min"] = float64(polls) / (last.T - st.T) * 60
		r["cpu_share_steady_pct"] = 100 * (last.CPU - st.CPU) / (last.T - st.T)
		r["cpu_s_per_poll_steady"] = (last.CPU - st.CPU) / float64(max(polls, 1))
		r["commits_per_poll_steady"] = float64(last.Commits-st.Commits) / float64(max(polls, 1))
		r["db_growth_bytes_per_1000_polls_steady"] = float64(last.DBBytes-st.DBBytes) / float64(max(polls, 1)) * 1000
		var rss, n, gmin, gmax int64 = 0, 0, 1 << 40, 0
		for _, s := range ss {
			if s.T >= st.T {
				rss += s.RSSKB
				n++
				if s.Goroutines >= 0 { // -1: the debug endpoint did not answer in time
					gmin, gmax = min(gmin, s.Goroutines), max(gmax, s.Goroutines)
				}
			}
		}
		r["rss_steady_avg_mb"] = float64(rss) / float64(n) / 1024
		r["goroutines_steady_min"], r["goroutines_steady_max"] = gmin, gmax
	}
	r["commits_per_poll_total"] = float64(last.Commits) / float64(max(last.Polls, 1))
	r["rss_peak_mb"] = float64(last.HWMKB) / 1024
	r["rss_end_mb"] = float64(last.RSSKB) / 1024
	r["db_bytes_end"] = last.DBBytes
	r["db_bytes_first_sample"] = first.DBBytes
	r["latency_n"] = len(lat)
	r["latency_missing"] = missing
	r["emails_accepted"] = msgs
	r["latency_p50_ms"] = pct(lat, 0.5).Seconds() * 1000
	r["latency_p99_ms"] = pct(lat, 0.99).Seconds() * 1000
	if len(lat) > 0 {
		r["latency_max_ms"] = lat[len(lat)-1].Seconds() * 1000
		r["latency_min_ms"] = lat[0].Seconds() * 1000
	}
	r["shutdown_at_s"] = stopAt.Seconds()
	return r
}

func printSummary(r map[string]any, ss []sample) {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("| figure | value |\n|---|---|")
	for _, k := range keys {
		switch v := r[k].(type) {
		case float64:
			fmt.Printf("| %s | %.4g |\n", k, v)
		default:
			fmt.Printf("| %s | %v |\n", k, v)
		}
	}
	fmt.Println("\n| t (s) | CPU s | RSS MB | HWM MB | goroutines | threads | polls | commits | DB KB |\n|---|---|---|---|---|---|---|---|---|")
	for i, s := range ss {
		if i%6 != 0 && i != len(ss)-1 {
			continue // one row every 30 s
		}
		fmt.Printf("| %.0f | %.2f | %.1f | %.1f | %d | %d | %d | %d | %d |\n", s.T, s.CPU, float64(s.RSSKB)/1024,
			float64(s.HWMKB)/1024, s.Goroutines, s.Threads, s.Polls, s.Commits, s.DBBytes/1024)
	}
}

var clkTck = 100.0 // USER_HZ on Linux

func procCPU(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(raw)
	s = s[strings.LastIndexByte(s, ')')+2:]
	f := strings.Fields(s)
	// fields after ")": state(0) ... utime(11) stime(12)
	ut, _ := strconv.ParseFloat(f[11], 64)
	stt, _ := strconv.ParseFloat(f[12], 64)
	return (ut + stt) / clkTck
}

func procStatus(pid int) (rss, hwm, threads int64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		n, _ := strconv.ParseInt(strings.Fields(v + " 0")[0], 10, 64)
		switch k {
		case "VmRSS":
			rss = n
		case "VmHWM":
			hwm = n
		case "Threads":
			threads = n
		}
	}
	return
}

func debugVars(addr string) (goroutines, commits int64) {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + addr + "/debug/vars")
	if err != nil {
		return -1, -1
	}
	defer resp.Body.Close()
	var v struct {
		Notifio struct {
			Goroutines int64 `json:"goroutines"`
			Commits    int64 `json:"commits"`
		} `json:"notifio"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return -1, -1
	}
	return v.Notifio.Goroutines, v.Notifio.Commits
}

func fetchProfile(addr, file string) error {
	c := http.Client{Timeout: 60 * time.Second}
	resp, err := c.Get("http://" + addr + "/debug/pprof/profile?seconds=30")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
