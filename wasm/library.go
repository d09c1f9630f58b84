//go:build js && wasm

package main

// The library: the files this browser opened recently, kept in IndexedDB (go-indexeddb) so a
// reload, a discarded tab or an offline visit can open them again. An entry holds what the
// Recent list shows (name, size, sha-256, kind, summary, when), the Document (msgpack) so a
// file whose bytes were not kept still shows its tree, and, in a store of their own, the
// bytes themselves as the File/Blob the user opened, when they fit the size cap the page sets
// and the browser's quota. IndexedDB stores a Blob on disk, so keeping a file costs no memory
// here.
//
// Every library handler is async (bridge.go): IndexedDB answers through events, which a
// goroutine can wait for only while the worker's event loop runs.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"syscall/js"
	"time"

	"github.com/hack-pad/go-indexeddb/idb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/wasm/protocol"
)

const (
	libraryDB    = "neffscope"
	libraryStore = "files" // the entries, keyed by "key" (see entryKey): what the list shows and the Document
	// bytesStore holds the bytes of an entry's files ({key, files: [Blob]}, the entry's key),
	// written once: an entry opened again (a reload restores its file, which is then kept
	// again) rewrites only its entry, so the quota never has to hold a second copy of the
	// bytes, and a refused write never costs bytes already kept. Entries an older page wrote
	// may still hold their bytes inline (files[i].blob); they move here when rewritten.
	bytesStore = "bytes"
	// libraryMaxEntries bounds the Recent list: the oldest entries go first.
	libraryMaxEntries = 30
	// libraryPatience is how long a library call may wait for IndexedDB while the worker's
	// event loop is free (see patient).
	libraryPatience = 20 * time.Second
)

var libraryStores = []string{libraryStore, bytesStore}

type library struct {
	db  *idb.Database
	err error // why there is no library here (no IndexedDB, or it refused to open)
}

// openLibrary opens (or creates) the database. It never panics: a context without IndexedDB
// (some file:// pages, private modes) gets a library that explains why it is off.
func openLibrary(ctx context.Context) (lib *library) {
	lib = &library{}
	defer func() {
		if p := recover(); p != nil {
			lib.db, lib.err = nil, fmt.Errorf("IndexedDB is not available: %v", p)
		}
	}()
	// Reflect.get through Call, not Value.Get: a getter that throws (a denied IndexedDB)
	// unwinds through the wasm stack on Get and kills the Go runtime; Call turns it into a
	// panic the recover above takes.
	factory := js.Global().Get("Reflect").Call("get", js.Global(), "indexedDB")
	if !factory.Truthy() {
		lib.err = errors.New("this browser context has no IndexedDB")
		return lib
	}
	f, err := idb.WrapFactory(factory)
	if err != nil {
		lib.err = err
		return lib
	}
	db, err := openStore(ctx, f, 0)
	if err == nil && !hasStores(db) {
		// A database without our stores (an older schema, an upgrade that did not finish):
		// open the next version, whose upgrade creates what is missing.
		v, _ := db.Version()
		_ = db.Close()
		db, err = openStore(ctx, f, v+1)
		if err == nil && !hasStores(db) {
			err = errors.New("its object stores could not be created")
		}
	}
	if err != nil {
		lib.err = fmt.Errorf("IndexedDB refused to open: %v", err)
		return lib
	}
	lib.db = db
	return lib
}

// openStore opens the database at version (0: whatever version it has; a new one gets 1),
// creating the stores that are missing in the upgrade.
func openStore(ctx context.Context, f *idb.Factory, version uint) (*idb.Database, error) {
	req, err := f.Open(ctx, libraryDB, version, func(db *idb.Database, oldVersion, newVersion uint) error {
		for _, name := range libraryStores {
			if hasStore(db, name) {
				continue
			}
			if _, err := db.CreateObjectStore(name, idb.ObjectStoreOptions{KeyPath: js.ValueOf("key")}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return req.Await(ctx)
}

func hasStores(db *idb.Database) bool {
	for _, name := range libraryStores {
		if !hasStore(db, name) {
			return false
		}
	}
	return true
}

func hasStore(db *idb.Database, name string) bool {
	names, err := db.ObjectStoreNames()
	if err != nil {
		return false
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// patient is the context of a library call: it ignores the caller's wall-clock deadline and
// ends after limit of ticks of the worker's event loop instead. A core busy in a long call
// holds the event loop, so IndexedDB's answers (and these ticks) wait behind it: counted in
// wall-clock time, a write that was stored would be reported as "deadline exceeded".
func patient(parent context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	const tick = 250 * time.Millisecond
	left := int(limit / tick)
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		if left--; left <= 0 || ctx.Err() != nil {
			cancel()
			fn.Release()
			return nil
		}
		js.Global().Call("setTimeout", fn, tick.Milliseconds())
		return nil
	})
	js.Global().Call("setTimeout", fn, tick.Milliseconds())
	return ctx, cancel
}

// entryKey names an entry: the sha-256 of the file (of the first file, for a group).
func entryKey(e js.Value) string { return e.Get("key").String() }

// Why an entry has no bytes (its "dropped"): over the page's size cap, or refused by the
// browser's storage quota.
const (
	droppedCap   = "cap"
	droppedQuota = "quota"
)

// putResult is what put did: kept, whether the entry's bytes are kept (now or from before);
// stored, whether this put's entry was written (false: the entry kept before stands);
// note, what the user should know (empty when nothing).
type putResult struct {
	kept, stored bool
	note         string
	code         doc.Code // the note's code ('' when it has none)
}

// put stores entry (a JS object the worker built: key, name, size, sha256, kind, summary, how,
// files [{name, size, blob?}], doc) stamped with the time, and trims the list to
// libraryMaxEntries. It never makes what is kept poorer: bytes kept before stay (they are
// not written again), and when the quota refuses the write, an entry kept before stands as
// it was. When the quota refuses the bytes of a new entry, its Document alone is kept; when
// it refuses even that, put fails with a Limit error that says so.
func (l *library) put(ctx context.Context, entry js.Value) (putResult, error) {
	if l.db == nil {
		return putResult{}, l.err
	}
	key, name := entryKey(entry), entry.Get("name").String()
	entry.Set("opened", float64(time.Now().UnixMilli()))
	blobs := takeBlobs(entry)
	old, err := l.get(ctx, libraryStore, key)
	if err != nil {
		return putResult{}, err
	}
	bytes, err := l.get(ctx, bytesStore, key)
	if err != nil {
		return putResult{}, err
	}
	held, inline := bytes.Truthy(), old.Truthy() && keptInline(old)
	if held {
		blobs = nil // kept already: never written twice
	} else if blobs == nil && inline {
		blobs = takeBlobs(old) // an older page's inline bytes move to the bytes store
	}
	res := putResult{kept: held || blobs != nil, stored: true}
	if res.kept {
		entry.Delete("dropped")
	} else {
		entry.Set("dropped", droppedCap)
	}
	err = l.write(ctx, entry, blobs)
	refusedBytes := "The browser's storage quota refused the bytes of " + name + "; only its document is kept (forget older files under Recent to make room, then open it again)"
	if err != nil && isQuota(err) && old.Truthy() {
		// The entry kept before stands as it was, bytes and all.
		res = putResult{kept: held || inline}
		if !res.kept && blobs != nil {
			res.note, res.code = refusedBytes, doc.CodePageLibraryBytesRefused
		}
		return res, nil
	}
	if err != nil && isQuota(err) && blobs != nil {
		// A new entry whose bytes do not fit: its Document alone.
		res.kept = false
		res.note, res.code = refusedBytes, doc.CodePageLibraryBytesRefused
		entry.Set("dropped", droppedQuota)
		err = l.write(ctx, entry, nil)
	}
	if err != nil && isQuota(err) {
		return putResult{}, protocol.Errorf(protocol.Limit, "%s was not remembered: the browser's storage quota has no room even for its document (forget files under Recent to make room)", name)
	}
	if err != nil && ctx.Err() != nil && l.storedAt(key, entry.Get("opened").Float()) {
		err = nil // the wait ran out, but the write was stored
	}
	if err != nil {
		return putResult{}, fmt.Errorf("the library could not store %s: %v", name, err)
	}
	if err := l.trim(ctx); err != nil && res.note == "" {
		res.note = "could not trim the library: " + err.Error()
	}
	return res, nil
}

func isQuota(err error) bool {
	return strings.Contains(err.Error(), "Quota") || strings.Contains(err.Error(), "quota")
}

// get reads the record of key in store (undefined when there is none).
func (l *library) get(ctx context.Context, store, key string) (js.Value, error) {
	txn, err := l.db.Transaction(idb.TransactionReadOnly, store)
	if err != nil {
		return js.Value{}, err
	}
	s, err := txn.ObjectStore(store)
	if err != nil {
		return js.Value{}, err
	}
	req, err := s.Get(js.ValueOf(key))
	if err != nil {
		return js.Value{}, err
	}
	v, err := req.Await(ctx)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // (Await answers nothing, and no error, when the wait runs out)
	}
	return v, err
}

// write puts entry and, when blobs is not nil, the record of its bytes, in one transaction:
// both are stored or neither.
func (l *library) write(ctx context.Context, entry js.Value, blobs []js.Value) error {
	return l.update(ctx, func(files, bytes *idb.ObjectStore) error {
		if blobs != nil {
			if _, err := bytes.Put(object("key", entryKey(entry), "files", toAnySlice(blobs))); err != nil {
				return err
			}
		}
		_, err := files.Put(entry)
		return err
	})
}

// update runs fn over both stores in one read-write transaction and waits for it to commit.
func (l *library) update(ctx context.Context, fn func(files, bytes *idb.ObjectStore) error) error {
	txn, err := l.db.Transaction(idb.TransactionReadWrite, libraryStore, bytesStore)
	if err != nil {
		return err
	}
	files, err := txn.ObjectStore(libraryStore)
	if err != nil {
		return err
	}
	bytes, err := txn.ObjectStore(bytesStore)
	if err != nil {
		return err
	}
	if err := fn(files, bytes); err != nil {
		_ = txn.Abort()
		return err
	}
	return txn.Await(ctx)
}

// storedAt says whether the entry of key is stored with the time opened: a write whose wait
// ran out may have been stored all the same.
func (l *library) storedAt(key string, opened float64) bool {
	ctx, cancel := patient(context.Background(), libraryPatience)
	defer cancel()
	e, err := l.get(ctx, libraryStore, key)
	return err == nil && e.Truthy() && e.Get("opened").Float() == opened
}

// takeBlobs takes the bytes out of an entry's files: the blobs in order when every file has
// one, else nil (an entry reopens from its bytes only when it has all of them).
func takeBlobs(e js.Value) []js.Value {
	all := keptInline(e)
	fs := e.Get("files")
	var out []js.Value
	for i := 0; fs.Type() == js.TypeObject && i < fs.Length(); i++ {
		if all {
			out = append(out, fs.Index(i).Get("blob"))
		}
		fs.Index(i).Delete("blob")
	}
	return out
}

// keptInline: every file of e carries its bytes.
func keptInline(e js.Value) bool {
	fs := e.Get("files")
	if fs.Type() != js.TypeObject || fs.Length() == 0 {
		return false
	}
	for i := 0; i < fs.Length(); i++ {
		if !fs.Index(i).Get("blob").Truthy() {
			return false
		}
	}
	return true
}

func toAnySlice(vs []js.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// all returns every entry, newest first.
func (l *library) all(ctx context.Context) ([]js.Value, error) { return l.scan(ctx, nil) }

// scan returns the entries whose key is in keys (nil: every entry), newest first.
func (l *library) scan(ctx context.Context, keys *idb.KeyRange) ([]js.Value, error) {
	if l.db == nil {
		return nil, l.err
	}
	txn, err := l.db.Transaction(idb.TransactionReadOnly, libraryStore)
	if err != nil {
		return nil, err
	}
	s, err := txn.ObjectStore(libraryStore)
	if err != nil {
		return nil, err
	}
	var req *idb.CursorWithValueRequest
	if keys != nil {
		req, err = s.OpenCursorRange(keys, idb.CursorNext)
	} else {
		req, err = s.OpenCursor(idb.CursorNext)
	}
	if err != nil {
		return nil, err
	}
	var list []js.Value
	err = req.Iter(ctx, func(c *idb.CursorWithValue) error {
		v, err := c.Value()
		if err == nil {
			list = append(list, v)
		}
		return err
	})
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Get("opened").Float() > list[j].Get("opened").Float() })
	return list, nil
}

// heldKeys is the set of keys whose bytes the bytes store holds.
func (l *library) heldKeys(ctx context.Context) (map[string]bool, error) {
	txn, err := l.db.Transaction(idb.TransactionReadOnly, bytesStore)
	if err != nil {
		return nil, err
	}
	s, err := txn.ObjectStore(bytesStore)
	if err != nil {
		return nil, err
	}
	req, err := s.GetAllKeys()
	if err != nil {
		return nil, err
	}
	keys, err := req.Await(ctx)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k.String()] = true
	}
	return out, err
}

// trim deletes the oldest entries beyond libraryMaxEntries, with their bytes. It counts keys
// first, so the common case (the list is not full) reads no Document.
func (l *library) trim(ctx context.Context) error {
	txn, err := l.db.Transaction(idb.TransactionReadOnly, libraryStore)
	if err != nil {
		return err
	}
	s, err := txn.ObjectStore(libraryStore)
	if err != nil {
		return err
	}
	req, err := s.Count()
	if err != nil {
		return err
	}
	if n, err := req.Await(ctx); err != nil || n <= libraryMaxEntries {
		return err
	}
	list, err := l.all(ctx)
	if err != nil || len(list) <= libraryMaxEntries {
		return err
	}
	return l.update(ctx, func(files, bytes *idb.ObjectStore) error {
		for _, e := range list[libraryMaxEntries:] {
			if err := deleteBoth(files, bytes, entryKey(e)); err != nil {
				return err
			}
		}
		return nil
	})
}

func deleteBoth(files, bytes *idb.ObjectStore, key string) error {
	if _, err := files.Delete(js.ValueOf(key)); err != nil {
		return err
	}
	_, err := bytes.Delete(js.ValueOf(key))
	return err
}

// find returns the newest entry whose key starts with prefix (URL hashes carry a prefix of
// the sha-256), with its bytes (files[i].blob), or null. Keys are lower-case hex, so the
// prefix is a key range.
func (l *library) find(ctx context.Context, prefix string) (js.Value, error) {
	prefix = strings.ToLower(prefix)
	if prefix == "" {
		return js.Null(), nil
	}
	keys, err := idb.NewKeyRangeBound(js.ValueOf(prefix), js.ValueOf(prefix+"\uffff"), false, false)
	if err != nil {
		return js.Value{}, err
	}
	list, err := l.scan(ctx, keys)
	if err != nil || len(list) == 0 {
		return js.Null(), err
	}
	e := list[0]
	rec, err := l.get(ctx, bytesStore, entryKey(e))
	if err != nil {
		return js.Value{}, err
	}
	if rec.Truthy() {
		blobs, fs := rec.Get("files"), e.Get("files")
		for i := 0; fs.Type() == js.TypeObject && i < fs.Length() && i < blobs.Length(); i++ {
			fs.Index(i).Set("blob", blobs.Index(i))
		}
	}
	return e, nil
}

func (l *library) remove(ctx context.Context, key string) error {
	if l.db == nil {
		return l.err
	}
	return l.update(ctx, func(files, bytes *idb.ObjectStore) error { return deleteBoth(files, bytes, key) })
}

func (l *library) clear(ctx context.Context) error {
	if l.db == nil {
		return l.err
	}
	return l.update(ctx, func(files, bytes *idb.ObjectStore) error {
		if _, err := files.Clear(); err != nil {
			return err
		}
		_, err := bytes.Clear()
		return err
	})
}

// ---- bridge entry points (async handlers: IndexedDB answers through events) ----

// lib opens the library on first use and keeps it (or the reason it is off).
func (b *bridge) lib(ctx context.Context) *library {
	b.libOnce.Do(func() { b.library = openLibrary(ctx) })
	return b.library
}

// libOn is the library, or an unavailable error saying why it is off.
func (b *bridge) libOn(ctx context.Context) (*library, error) {
	l := b.lib(ctx)
	if l.db == nil {
		return nil, protocol.Wrap(protocol.Unavailable, l.err)
	}
	return l, nil
}

// libStatus → {ok, reason}
func (b *bridge) libStatus(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	l := b.lib(ctx)
	reason := ""
	if l.err != nil {
		reason = l.err.Error()
	}
	return object("ok", l.db != nil, "reason", reason), nil
}

// Each library call waits for IndexedDB in a patient context: see patient.

// libPut → {kept, stored, note}: entry as put documents it, without doc and key; the Document, its
// sha-256, kind and summary come from the open file under handle.
func (b *bridge) libPut(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	f := r.file
	if f.Doc.SHA256 == "" {
		return nil, errors.New("this file has no sha-256 (it was not read to the end), so the library cannot keep it")
	}
	// The library keeps the whole Document: source lines still to be mapped are mapped first
	// (the page puts an entry only after indexSource, so this is a guard).
	if err := b.ensureSource(f); err != nil {
		return nil, err
	}
	enc, err := f.Doc.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	entry := r.args.Get("entry")
	if !entry.Get("key").Truthy() {
		entry.Set("key", f.Doc.SHA256)
	}
	entry.Set("sha256", f.Doc.SHA256)
	entry.Set("kind", f.Doc.Kind)
	entry.Set("size", float64(f.Doc.Size))
	if f.Doc.Root != nil {
		entry.Set("summary", f.Doc.Root.Value)
	}
	entry.Set("doc", toUint8Array(enc))
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	out, err := l.put(ctx, entry)
	if err != nil {
		return nil, err
	}
	return object("kept", out.kept, "stored", out.stored, "note", out.note, "code", string(out.code)), nil
}

// libList → {list}: every entry without doc and blobs, with files[i].kept, newest first.
func (b *bridge) libList(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	list, err := l.all(ctx)
	if err != nil {
		return nil, err
	}
	held, err := l.heldKeys(ctx)
	if err != nil {
		return nil, err
	}
	arr := make([]any, 0, len(list))
	for _, e := range list {
		e.Delete("doc")
		fs := e.Get("files")
		for i := 0; fs.Type() == js.TypeObject && i < fs.Length(); i++ {
			fi := fs.Index(i)
			fi.Set("kept", held[entryKey(e)] || fi.Get("blob").Truthy())
			fi.Delete("blob")
		}
		arr = append(arr, e)
	}
	return object("list", arr), nil
}

// libGet → {entry|null}: the whole entry, Document and blobs included.
func (b *bridge) libGet(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	e, err := l.find(ctx, r.str("key"))
	if err != nil {
		return nil, err
	}
	return object("entry", e), nil
}

// libRemove → {}
func (b *bridge) libRemove(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	return object(), l.remove(ctx, r.str("key"))
}

// libClear → {}
func (b *bridge) libClear(ctx context.Context, r *request) (any, error) {
	ctx, done := patient(ctx, libraryPatience)
	defer done()
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	return object(), l.clear(ctx)
}
