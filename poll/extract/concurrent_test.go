package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentExtract: extractions sharing one parsed tree (as the poll and
// the classifier do) give what one alone gives. Run with -race.
func TestConcurrentExtract(t *testing.T) {
	for _, c := range fixtures[:8] {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		root := Parse(body)
		one, _ := ExtractTree(root, mustURL(c.url), c.sel, c.opt)
		want, _ := json.Marshal(one)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				r, err := ExtractTree(root, mustURL(c.url), c.sel, c.opt)
				if err != nil {
					t.Error(err)
					return
				}
				if got, _ := json.Marshal(r); string(got) != string(want) {
					t.Errorf("%s: concurrent extraction differs", c.name)
				}
			})
		}
		wg.Wait()
	}
}
