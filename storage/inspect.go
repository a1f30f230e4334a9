package storage

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"

	bolt "go.etcd.io/bbolt"
)

// The parts of bbolt's file format (version 2, frozen) that inspectFile reads.
// bbolt stores them in native byte order; every platform Notifio ships for is
// little-endian.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	pageHeaderSize  = 16 // id u64, flags u16, count u16, overflow u32
	elementSize     = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	bucketHeader    = 16 // a bucket value: root pgid u64, sequence u64 (root 0: an inline page follows)
	branchFlag      = 0x01
	leafFlag        = 0x02
	freelistFlag    = 0x10
	bucketLeafFlag  = 0x01
	maxTreeDepth    = 64
	pgidNoFreelist  = ^uint64(0)
	metaOffset      = pageHeaderSize
	metaChecksumEnd = metaOffset + 56 // magic..txid are checksummed
)

type metaPage struct {
	root, freelist, pgid, txid uint64
}

// inspectFile checks, by reading the file directly, what bbolt trusts without
// checking and could fault, panic, loop or recurse forever on (in Check's own
// goroutine, where none of that can be caught): that the file is as long as the
// database, that the freelist page the meta page names is a freelist page that
// fits, and that the tree of buckets is a tree: every page it reaches is a branch
// or leaf page inside the file that says it is that page, reached once, not too
// deep, with its elements, keys and values inside it. tx is a read transaction on
// the file; its ID tells which of the two meta pages is in use.
func inspectFile(path string, bdb *bolt.DB, tx *bolt.Tx) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if size := tx.Size(); st.Size() < size {
		return fmt.Errorf("the file is truncated: %d bytes where the database needs %d", st.Size(), size)
	}
	pageSize := int64(bdb.Info().PageSize)
	pgid := uint64(tx.Size() / pageSize)

	var meta *metaPage
	for i := int64(0); i < 2 && meta == nil; i++ {
		if m, ok := readMeta(f, i*pageSize); ok && m.txid == uint64(tx.ID()) {
			meta = m
		}
	}
	if meta == nil {
		return fmt.Errorf("no meta page for transaction %d", tx.ID())
	}
	if meta.root < 2 || meta.root >= pgid {
		return fmt.Errorf("the root page %d is outside the file (%d pages)", meta.root, pgid)
	}
	if meta.freelist == pgidNoFreelist {
		return fmt.Errorf("it has no freelist (Notifio always writes one)")
	}
	if meta.freelist < 2 || meta.freelist >= pgid {
		return fmt.Errorf("the freelist page %d is outside the file (%d pages)", meta.freelist, pgid)
	}
	hdr := make([]byte, pageHeaderSize+8)
	if _, err := f.ReadAt(hdr, int64(meta.freelist)*pageSize); err != nil {
		return fmt.Errorf("reading the freelist page: %w", err)
	}
	flags := binary.LittleEndian.Uint16(hdr[8:])
	count := uint64(binary.LittleEndian.Uint16(hdr[10:]))
	overflow := uint64(binary.LittleEndian.Uint32(hdr[12:]))
	if flags != freelistFlag {
		return fmt.Errorf("page %d is not the freelist (flags %#x)", meta.freelist, flags)
	}
	if meta.freelist+overflow >= pgid {
		return fmt.Errorf("the freelist (pages %d+%d) runs past the end of the file (%d pages)", meta.freelist, overflow, pgid)
	}
	if count == 0xFFFF { // the real count is the first element
		count = binary.LittleEndian.Uint64(hdr[pageHeaderSize:]) + 1
	}
	if pageHeaderSize+8*count > (overflow+1)*uint64(pageSize) {
		return fmt.Errorf("the freelist claims %d entries, more than its %d pages hold", count, overflow+1)
	}
	w := &walker{f: f, pageSize: pageSize, pgid: pgid, seen: map[uint64]bool{}}
	return w.walk(meta.root, 0)
}

// walker reads the bucket tree page by page from the file (never through the
// memory map, so damage cannot fault).
type walker struct {
	f        *os.File
	pageSize int64
	pgid     uint64 // high-water mark: pages are < pgid
	seen     map[uint64]bool
}

// walk checks the page id and everything under it.
func (w *walker) walk(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("the page tree is deeper than %d (a loop?)", maxTreeDepth)
	}
	if id < 2 || id >= w.pgid {
		return fmt.Errorf("a page reference (%d) points outside the file (%d pages)", id, w.pgid)
	}
	hdr := make([]byte, pageHeaderSize)
	if _, err := w.f.ReadAt(hdr, int64(id)*w.pageSize); err != nil {
		return fmt.Errorf("reading page %d: %w", id, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(hdr); got != id {
		return fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if id+overflow >= w.pgid {
		return fmt.Errorf("page %d (+%d overflow) runs past the end of the file (%d pages)", id, overflow, w.pgid)
	}
	for p := id; p <= id+overflow; p++ {
		if w.seen[p] {
			return fmt.Errorf("page %d is reached twice (a loop or a shared page)", p)
		}
		w.seen[p] = true
	}
	buf := make([]byte, int64(overflow+1)*w.pageSize)
	if _, err := w.f.ReadAt(buf, int64(id)*w.pageSize); err != nil {
		return fmt.Errorf("reading page %d: %w", id, err)
	}
	return w.page(buf, fmt.Sprintf("page %d", id), depth)
}

// page checks one branch or leaf page held in buf (a file page or an inline
// bucket's page) and walks what it points to.
func (w *walker) page(buf []byte, name string, depth int) error {
	if len(buf) < pageHeaderSize {
		return fmt.Errorf("%s is shorter than a page header", name)
	}
	le := binary.LittleEndian
	flags := le.Uint16(buf[8:])
	count := int(le.Uint16(buf[10:]))
	if pageHeaderSize+count*elementSize > len(buf) {
		return fmt.Errorf("%s claims %d elements, more than fit", name, count)
	}
	// inside reports whether the element at off has its key (and value) in buf.
	inside := func(off int, pos, n uint32) bool {
		start := uint64(off) + uint64(pos)
		return start+uint64(n) <= uint64(len(buf))
	}
	switch flags {
	case branchFlag:
		if count == 0 {
			return fmt.Errorf("%s is an empty branch", name)
		}
		for i := 0; i < count; i++ {
			off := pageHeaderSize + i*elementSize
			if !inside(off, le.Uint32(buf[off:]), le.Uint32(buf[off+4:])) {
				return fmt.Errorf("%s: element %d's key lies outside the page", name, i)
			}
			if err := w.walk(le.Uint64(buf[off+8:]), depth+1); err != nil {
				return err
			}
		}
	case leafFlag:
		for i := 0; i < count; i++ {
			off := pageHeaderSize + i*elementSize
			eflags, pos := le.Uint32(buf[off:]), le.Uint32(buf[off+4:])
			ksize, vsize := le.Uint32(buf[off+8:]), le.Uint32(buf[off+12:])
			if !inside(off, pos, ksize+vsize) || uint64(ksize)+uint64(vsize) > uint64(len(buf)) {
				return fmt.Errorf("%s: element %d's key or value lies outside the page", name, i)
			}
			if eflags&bucketLeafFlag == 0 {
				continue
			}
			v := buf[off+int(pos)+int(ksize) : off+int(pos)+int(ksize)+int(vsize)]
			if len(v) < bucketHeader {
				return fmt.Errorf("%s: element %d is a bucket too short for its header", name, i)
			}
			if root := le.Uint64(v); root != 0 {
				if err := w.walk(root, depth+1); err != nil {
					return err
				}
			} else if depth+1 > maxTreeDepth {
				return fmt.Errorf("the buckets are nested deeper than %d", maxTreeDepth)
			} else if err := w.page(v[bucketHeader:], fmt.Sprintf("%s: inline bucket %d", name, i), depth+1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s has type %#x where a branch or leaf page belongs", name, flags)
	}
	return nil
}

// readMeta reads and validates the meta page at off.
func readMeta(f *os.File, off int64) (*metaPage, bool) {
	buf := make([]byte, metaChecksumEnd+8)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, false
	}
	le := binary.LittleEndian
	m := buf[metaOffset:]
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion {
		return nil, false
	}
	h := fnv.New64a()
	_, _ = h.Write(buf[metaOffset:metaChecksumEnd])
	if h.Sum64() != le.Uint64(buf[metaChecksumEnd:]) {
		return nil, false
	}
	return &metaPage{root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}
