//go:build js && wasm

package main

// The library: the files this browser opened recently, kept in IndexedDB (go-indexeddb) so a
// reload, a discarded tab or an offline visit can open them again. An entry holds what the
// Recent list shows (name, size, sha-256, kind, summary, when), the Document (msgpack) so a
// file whose bytes were not kept still shows its tree, and the bytes themselves as the
// File/Blob the user opened, when they fit the size cap the page sets. IndexedDB stores a
// Blob on disk, so keeping a file costs no memory here.
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

	"github.com/neffscope/neffscope/wasm/protocol"
)

const (
	libraryDB    = "neffscope"
	libraryStore = "files" // keyed by the entry's "key" (see entryKey)
	// libraryMaxEntries bounds the Recent list: the oldest entries go first.
	libraryMaxEntries = 30
	libraryTimeout    = 20 * time.Second
)

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
	if err == nil && !hasStore(db) {
		// A database without our store (an upgrade that did not finish, an older schema):
		// open the next version, whose upgrade creates what is missing.
		v, _ := db.Version()
		_ = db.Close()
		db, err = openStore(ctx, f, v+1)
		if err == nil && !hasStore(db) {
			err = errors.New("its object store could not be created")
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
// creating the store in the upgrade when it is missing.
func openStore(ctx context.Context, f *idb.Factory, version uint) (*idb.Database, error) {
	req, err := f.Open(ctx, libraryDB, version, func(db *idb.Database, oldVersion, newVersion uint) error {
		if hasStore(db) {
			return nil
		}
		_, err := db.CreateObjectStore(libraryStore, idb.ObjectStoreOptions{KeyPath: js.ValueOf("key")})
		return err
	})
	if err != nil {
		return nil, err
	}
	return req.Await(ctx)
}

func hasStore(db *idb.Database) bool {
	names, err := db.ObjectStoreNames()
	if err != nil {
		return false
	}
	for _, n := range names {
		if n == libraryStore {
			return true
		}
	}
	return false
}

// entryKey names an entry: the sha-256 of the file (of the first file, for a group).
func entryKey(e js.Value) string { return e.Get("key").String() }

// put stores entry (a JS object the worker built: key, name, size, sha256, kind, summary, how,
// files [{name, size, blob?}], doc) stamped with the time, replacing an entry with the same
// key, and trims the list to libraryMaxEntries. When the browser's quota refuses the bytes,
// the entry is stored without them, and the answer says so.
func (l *library) put(ctx context.Context, entry js.Value) (js.Value, error) {
	if l.db == nil {
		return js.Value{}, l.err
	}
	entry.Set("opened", float64(time.Now().UnixMilli()))
	out := js.Global().Get("Object").New()
	out.Set("kept", hasBytes(entry))
	err := l.write(ctx, func(s *idb.ObjectStore) error {
		_, err := s.Put(entry)
		return err
	})
	if err != nil && hasBytes(entry) && isQuota(err) {
		dropBytes(entry)
		out.Set("kept", false)
		out.Set("note", "the browser's storage quota refused the bytes of "+entry.Get("name").String()+"; only its document was kept (forget older files under Recent, or lower the cap there, to make room)")
		err = l.write(ctx, func(s *idb.ObjectStore) error { _, err := s.Put(entry); return err })
	}
	if err != nil {
		return js.Value{}, fmt.Errorf("the library could not store %s: %v", entry.Get("name").String(), err)
	}
	if err := l.trim(ctx); err != nil {
		out.Set("note", "could not trim the library: "+err.Error())
	}
	return out, nil
}

func hasBytes(e js.Value) bool {
	fs := e.Get("files")
	if fs.Type() != js.TypeObject {
		return false
	}
	for i := 0; i < fs.Length(); i++ {
		if fs.Index(i).Get("blob").Truthy() {
			return true
		}
	}
	return false
}

func dropBytes(e js.Value) {
	fs := e.Get("files")
	for i := 0; fs.Type() == js.TypeObject && i < fs.Length(); i++ {
		fs.Index(i).Delete("blob")
	}
}

func isQuota(err error) bool {
	return strings.Contains(err.Error(), "Quota") || strings.Contains(err.Error(), "quota")
}

// write runs fn in a read-write transaction and waits for it to commit.
func (l *library) write(ctx context.Context, fn func(*idb.ObjectStore) error) error {
	txn, err := l.db.Transaction(idb.TransactionReadWrite, libraryStore)
	if err != nil {
		return err
	}
	s, err := txn.ObjectStore(libraryStore)
	if err != nil {
		return err
	}
	if err := fn(s); err != nil {
		_ = txn.Abort()
		return err
	}
	return txn.Await(ctx)
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
	if err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Get("opened").Float() > list[j].Get("opened").Float() })
	return list, nil
}

// trim deletes the oldest entries beyond libraryMaxEntries. It counts keys first, so the
// common case (the list is not full) reads no Document.
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
	return l.write(ctx, func(s *idb.ObjectStore) error {
		for _, e := range list[libraryMaxEntries:] {
			if _, err := s.Delete(js.ValueOf(entryKey(e))); err != nil {
				return err
			}
		}
		return nil
	})
}

// find returns the newest entry whose key starts with prefix (URL hashes carry a prefix of
// the sha-256), or null. Keys are lower-case hex, so the prefix is a key range.
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
	return list[0], nil
}

func (l *library) remove(ctx context.Context, key string) error {
	if l.db == nil {
		return l.err
	}
	return l.write(ctx, func(s *idb.ObjectStore) error { _, err := s.Delete(js.ValueOf(key)); return err })
}

func (l *library) clear(ctx context.Context) error {
	if l.db == nil {
		return l.err
	}
	return l.write(ctx, func(s *idb.ObjectStore) error { _, err := s.Clear(); return err })
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
	l := b.lib(ctx)
	reason := ""
	if l.err != nil {
		reason = l.err.Error()
	}
	return object("ok", l.db != nil, "reason", reason), nil
}

// libPut → {kept, note}: entry as put documents it, without doc and key; the Document, its
// sha-256, kind and summary come from the open file under handle.
func (b *bridge) libPut(ctx context.Context, r *request) (any, error) {
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
	note := ""
	if n := out.Get("note"); n.Type() == js.TypeString {
		note = n.String()
	}
	return object("kept", out.Get("kept"), "note", note), nil
}

// libList → {list}: every entry without doc and blobs, with files[i].kept, newest first.
func (b *bridge) libList(ctx context.Context, r *request) (any, error) {
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	list, err := l.all(ctx)
	if err != nil {
		return nil, err
	}
	arr := make([]any, 0, len(list))
	for _, e := range list {
		e.Delete("doc")
		fs := e.Get("files")
		for i := 0; fs.Type() == js.TypeObject && i < fs.Length(); i++ {
			fi := fs.Index(i)
			fi.Set("kept", fi.Get("blob").Truthy())
			fi.Delete("blob")
		}
		arr = append(arr, e)
	}
	return object("list", arr), nil
}

// libGet → {entry|null}: the whole entry, Document and blobs included.
func (b *bridge) libGet(ctx context.Context, r *request) (any, error) {
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
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	return object(), l.remove(ctx, r.str("key"))
}

// libClear → {}
func (b *bridge) libClear(ctx context.Context, r *request) (any, error) {
	l, err := b.libOn(ctx)
	if err != nil {
		return nil, err
	}
	return object(), l.clear(ctx)
}
