package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"notifio/internal/model"
)

// serveOn is a loopback page server on its own address (127.0.0.N), so that
// each is a site of its own.
func serveOn(t *testing.T, addr string, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("no loopback address %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// TestRefusalKindsCrossTheSocket: a site's refusal kind (SiteSnapshot.Kind)
// and a search's (Health.Refusal) are typed, and cross the socket by name: a
// site that refuses comes back with its kind, one that answers with none
// (the zero kind is left out, not an encoding error), and the wire names
// the kind as the command line's --json always did.
func TestRefusalKindsCrossTheSocket(t *testing.T) {
	s := serve(t)
	busy := serveOn(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	good := serveOn(t, "127.0.0.3", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Flats</title></head><body><main id="results">`+
			`<article class="card"><a href="/expose/1"><h2>Flat one</h2></a><p class="price">900 €</p></article>`+
			`<article class="card"><a href="/expose/2"><h2>Flat two</h2></a><p class="price">950 €</p></article>`+
			`</main></body></html>`)
	})
	for _, u := range []string{busy.URL + "/flats", good.URL + "/flats"} {
		if _, err := s.client.AddSearch(context.Background(), model.SearchInput{URL: u}); err != nil {
			t.Fatal(err)
		}
	}
	s.w.Service.Once(context.Background())

	local := s.w.Service.Snapshot()
	remote, err := s.client.SnapshotErr(context.Background())
	if err != nil {
		t.Fatalf("snapshot over the socket: %v", err)
	}
	kinds := func(snap model.Snapshot) map[string]model.Refusal {
		out := map[string]model.Refusal{}
		for _, st := range snap.Sites {
			out[st.Site] = st.Kind
		}
		return out
	}
	want := map[string]model.Refusal{"127.0.0.2": model.RefusalRateLimited, "127.0.0.3": 0}
	for _, snap := range []model.Snapshot{local, remote} {
		if got := kinds(snap); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("site kinds %v, want %v", got, want)
		}
	}
	for _, sr := range remote.Searches {
		if sr.Site == "127.0.0.2" && (sr.Health.Kind != model.HealthBlocked || sr.Health.Refusal != model.RefusalRateLimited) {
			t.Errorf("the refused search's health over the socket: %+v", sr.Health)
		}
		if sr.Site == "127.0.0.3" && sr.Health.Refusal != 0 {
			t.Errorf("the good search's health over the socket: %+v", sr.Health)
		}
	}

	b, err := json.Marshal(local)
	if err != nil {
		t.Fatal(err)
	}
	if text := string(b); !strings.Contains(text, `"Kind":"rate_limited"`) || !strings.Contains(text, `"refusal":"rate_limited"`) {
		t.Errorf("the snapshot's JSON does not name the kinds: %s", text)
	}
}
