package extract

import (
	"fmt"
	"reflect"
	"testing"
)

// leftover returns the path of the first thing v still holds that
// page.reset must have emptied ("" if none): lists and maps must be empty
// (their capacity is kept), a list of things that point must hold nothing
// past its length either (or it keeps an old page's nodes and strings
// alive), everything else zero, through nested structs and arrays.
func leftover(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		if v.Len() != 0 {
			return fmt.Sprintf("%s (length %d)", path, v.Len())
		}
		if v.Kind() == reflect.Slice && pointsAt(v.Type().Elem()) {
			all := v.Slice(0, v.Cap())
			for i := range all.Len() {
				if !all.Index(i).IsZero() {
					return fmt.Sprintf("%s[%d] (past its length)", path, i)
				}
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if s := leftover(v.Field(i), path+"."+v.Type().Field(i).Name); s != "" {
				return s
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			if s := leftover(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); s != "" {
				return s
			}
		}
	default:
		if !v.IsZero() {
			return path
		}
	}
	return ""
}

// pointsAt reports whether a value of type t holds a pointer (a string, a
// slice, a map, an interface: anything the collector follows).
func pointsAt(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && pointsAt(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if pointsAt(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// TestPageResetLeavesNothing: after extracting any fixture or real page (and
// read by a profile, by selectors and by the generic strategies),
// page.reset leaves no field of the page, its JSON reader included, holding
// anything: both are reset field by field, and a field added and not reset,
// or a memo cleared only when marked used and not marked, fails here. The memos must
// have been used on some page, so that clearing them is tested.
func TestPageResetLeavesNothing(t *testing.T) {
	bodies, urls := cardPages(t)
	var usedCoarse, usedFlags, usedAd, usedTable, usedPromoted bool
	profRuns, selRuns := 0, 0
	for k, body := range bodies {
		doc := Parse(body)
		runs := []func(p *page){
			func(p *page) { r := p.generic(); p.finish(&r) },
			func(p *page) { p.cards() },
			func(p *page) { p.jsonLD(); p.appState() },
			func(p *page) { p.blocked(); p.hasNoResultsPhrase(genericNoResults) },
		}
		if prof := profileFor(urls[k].Hostname()); prof != nil {
			runs = append(runs, func(p *page) { r := p.byProfile(prof); p.finish(&r) })
			profRuns++
		}
		for _, c := range fixtures {
			if c.sel.Item != "" && mustURL(c.url).String() == urls[k].String() {
				us, err := compileSelectors(c.sel)
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, func(p *page) { r := p.bySelectors(us); p.finish(&r) })
				selRuns++
			}
		}
		for _, run := range runs {
			p := newPage(doc, urls[k])
			run(p)
			usedCoarse = usedCoarse || p.coarseMemo.n > 0
			usedFlags = usedFlags || p.classFlags.used
			usedAd = usedAd || p.adClasses.set != [len(p.adClasses.set)]bool{}
			usedTable = usedTable || p.table != nil
			usedPromoted = usedPromoted || p.promotedDone
			if p.classFlags != (classFlagsMemo{}) && !p.classFlags.used {
				t.Fatalf("%s: classFlags holds entries but is not marked used", urls[k])
			}
			p.reset()
			if s := leftover(reflect.ValueOf(p).Elem(), "page"); s != "" {
				t.Fatalf("%s: after reset the page still holds %s", urls[k], s)
			}
		}
	}
	if profRuns == 0 || selRuns == 0 {
		t.Errorf("pages read by a profile %d, by selectors %d: want both > 0", profRuns, selRuns)
	}
	if !usedCoarse || !usedFlags || !usedAd || !usedTable || !usedPromoted {
		t.Errorf("memos used: coarse %v, class flags %v, ad classes %v, table %v, promoted %v: want all", usedCoarse, usedFlags, usedAd, usedTable, usedPromoted)
	}
}
