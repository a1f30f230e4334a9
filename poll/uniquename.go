package poll

import (
	"fmt"

	"notifio/poll/words"
)

// uniqueName is name, or "name (2)", "name (3)", … when another search has
// it: alerts about several searches name each one apart. The caller holds
// s.mu.
func (s *Service) uniqueName(name string) string {
	taken := map[string]bool{}
	for _, r := range s.searches {
		taken[r.s.Name] = true
	}
	for n, try := 2, name; ; n++ {
		if !taken[try] {
			return try
		}
		suffix := fmt.Sprintf(" (%d)", n)
		base := []rune(name)
		if len(base)+len(suffix) > words.MaxNameRunes {
			base = base[:words.MaxNameRunes-len(suffix)]
		}
		try = string(base) + suffix
	}
}
