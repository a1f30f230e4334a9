package poll

import (
	"strings"
	"testing"
	"time"

	"notifio/poll/words"
)

// A mistyped host (it does not resolve) beside a site that answers is that
// site's problem, not this computer being offline: the error ladder, its own
// words, an alert once the spell passes the alert threshold (an hour).
func TestHostNotFoundBesideAGoodSiteIsTheSitesProblem(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	good := newSite(t, "127.0.0.2", "1", "2")
	h.add("Good", good.srv.URL+"/s", time.Minute)
	typo := h.add("Typo", "http://wohnungen-typo.invalid/s", time.Minute)
	h.runStep(75*time.Minute, 5*time.Second)

	if e, ok := h.svc.reg.Lookup(typo.Site); !ok || e.Kind.String() != "error" {
		t.Errorf("the mistyped host's site has no error-ladder wait (%+v, %v)", e, ok)
	}
	snap := h.svc.Snapshot()
	if snap.Offline {
		t.Error("the snapshot says offline while a site answers")
	}
	for _, s := range snap.Searches {
		switch s.Name {
		case "Typo":
			if s.LastOutcome == "offline" || !s.Health.Kind.NeedsUser() {
				t.Errorf("typo: outcome %q, health %q; want a problem the user is told about", s.LastOutcome, s.Health.Kind)
			}
			words := s.Health.Problem + " " + s.Health.Hint
			if !strings.Contains(words, "not found") || !strings.Contains(words, "typo") || strings.Contains(words, "internet connection") {
				t.Errorf("typo words %q: want host not found and a typo to check, not the internet connection", words)
			}
		case "Good":
			if s.Health.Kind.NeedsUser() || s.LastOutcome != "ok" {
				t.Errorf("good: outcome %q, health %q; want ok", s.LastOutcome, s.Health.Kind)
			}
		}
	}
	for _, st := range snap.Sites {
		if st.Site == typo.Site && words.SiteWords(st, snap.At) == "reads normally" {
			t.Errorf("sites says the mistyped host %q reads normally", st.Site)
		}
	}
	alerts := h.alerts()
	if len(alerts) != 1 || !strings.Contains(alerts[0].Alert.Subject, "Typo") || !strings.Contains(alerts[0].Alert.Subject, "not found") {
		var subjects []string
		for _, a := range alerts {
			subjects = append(subjects, a.Alert.Subject)
		}
		t.Errorf("alerts %q, want one about “Typo” not being found", subjects)
	}
}
