package words

import (
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
)

// LadderWords says how the pauses after refusals of kind k grow, in words,
// not arrows ("→" came out garbled after a line break in the real window):
// minutes are named once, after the last — "1, 3, 8, then 15 minutes".
func LadderWords(k model.Refusal) string {
	steps := model.DefaultLadders()[k]
	words := make([]string, len(steps))
	for i, d := range steps {
		switch {
		case d < time.Minute:
			words[i] = strconv.Itoa(int(d/time.Second)) + " seconds"
		case i == len(steps)-1:
			words[i] = strconv.Itoa(int(d/time.Minute)) + " minutes"
		default:
			words[i] = strconv.Itoa(int(d / time.Minute))
		}
	}
	last := len(words) - 1
	return strings.Join(words[:last], ", ") + ", then " + words[last]
}
