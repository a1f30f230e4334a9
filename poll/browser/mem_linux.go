package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// treeRSS is the memory of pid and all its descendants, from /proc: the sum
// of their proportional set sizes (a page shared by n processes counts 1/n in
// each), so the libraries every browser process maps count once.
func treeRSS(pid int) int64 {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		raw, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		s := string(raw)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		child, _ := strconv.Atoi(strings.Fields(s)[0])
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], child)
	}
	var total int64
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		queue = append(queue, children[p]...)
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/smaps_rollup")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
				f := strings.Fields(rest) // "1234 kB"
				if len(f) > 0 {
					kb, _ := strconv.ParseInt(f[0], 10, 64)
					total += kb << 10
				}
				break
			}
		}
	}
	return total
}
