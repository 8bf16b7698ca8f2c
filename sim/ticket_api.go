package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// ticket_api.py (class TicketAPI). Result and error strings are protocol
// constants reproduced from that file.

import (
	"encoding/binary"
	"fmt"
	"github.com/bfcl-go/bfcl/generated/stubs"
	"math/bits"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/pyval"
)

// TicketAPI is upstream's TicketAPI.
type TicketAPI struct {
	ticketQueue   pyval.Value
	ticketCounter pyval.Value
	currentUser   pyval.Value
}

// NewTicketAPI returns an instance as upstream's constructor leaves it.
func NewTicketAPI(*Env) *TicketAPI { return &TicketAPI{} }

// ClassName implements Instance.
func (*TicketAPI) ClassName() string { return "TicketAPI" }

// LoadScenario is upstream's _load_scenario.
func (t *TicketAPI) LoadScenario(config *pyval.Dict, _ bool) error {
	get := func(key string, def pyval.Value) pyval.Value {
		if v, ok := config.GetStr(key); ok {
			return v
		}
		return def
	}
	t.ticketQueue = get("ticket_queue", pyval.NewList())
	t.ticketCounter = get("ticket_counter", pyval.Int(1))
	t.currentUser = get("current_user", pyval.None)
	return nil
}

// State implements Instance.
func (t *TicketAPI) State() *pyval.Dict {
	d := pyval.NewDict()
	if t.ticketQueue == nil { // before _load_scenario vars() holds no public name
		return d
	}
	d.SetStr("ticket_queue", t.ticketQueue)
	d.SetStr("ticket_counter", t.ticketCounter)
	d.SetStr("current_user", t.currentUser)
	return d
}

// CreateTicket is upstream's create_ticket(title, description="", priority=1).
// The returned dict is the queued ticket itself.
func (t *TicketAPI) CreateTicket(args stubs.TicketAPICreateTicketArgs) (pyval.Value, error) {
	title, description, priority := args.Title.V, args.Description.V, args.Priority.V
	if !pyval.Truthy(t.currentUser) {
		return oneKey("error", pyval.Str("User not authenticated. Please log in to create a ticket.")), nil
	}
	low, err := pyval.Compare("<", priority, pyval.Int(1))
	if err != nil {
		return nil, err
	}
	bad := low
	if !bad {
		if bad, err = pyval.Compare(">", priority, pyval.Int(5)); err != nil {
			return nil, err
		}
	}
	if bad {
		return oneKey("error", pyval.Str("Invalid priority. Priority must be between 1 and 5.")), nil
	}
	ticket := pyval.NewDict()
	ticket.SetStr("id", t.ticketCounter)
	ticket.SetStr("title", title)
	ticket.SetStr("description", description)
	ticket.SetStr("status", pyval.Str("Open"))
	ticket.SetStr("priority", priority)
	ticket.SetStr("created_by", t.currentUser)
	if err := pyval.Append(t.ticketQueue, ticket); err != nil {
		return nil, err
	}
	next, err := pyval.Add(t.ticketCounter, pyval.Int(1))
	if err != nil {
		return nil, err
	}
	t.ticketCounter = next
	return ticket, nil
}

// findTicket is upstream's _find_ticket: the first ticket whose "id"
// equals ticketID, or nil.
func (t *TicketAPI) findTicket(ticketID pyval.Value) (pyval.Value, error) {
	items, err := pyval.ListOf(t.ticketQueue)
	if err != nil {
		return nil, err
	}
	for _, tk := range items {
		id, err := pyval.GetItem(tk, pyval.Str("id"))
		if err != nil {
			return nil, err
		}
		if pyval.Equal(id, ticketID) {
			return tk, nil
		}
	}
	return nil, nil
}

// foundTicket is `ticket = self._find_ticket(id); if not ticket: error`.
func (t *TicketAPI) foundTicket(ticketID pyval.Value) (pyval.Value, pyval.Value, error) {
	tk, err := t.findTicket(ticketID)
	if err != nil {
		return nil, nil, err
	}
	if tk == nil || !pyval.Truthy(tk) {
		return nil, oneKey("error", pyval.Str(fmt.Sprintf("Ticket with ID %s not found.", pyval.StrOf(ticketID)))), nil
	}
	return tk, nil, nil
}

// GetTicket is upstream's get_ticket(ticket_id): the ticket dict itself.
func (t *TicketAPI) GetTicket(args stubs.TicketAPIGetTicketArgs) (pyval.Value, error) {
	ticketID := args.TicketID.V
	tk, errDict, err := t.foundTicket(ticketID)
	if err != nil || errDict != nil {
		return errDict, err
	}
	return tk, nil
}

// CloseTicket is upstream's close_ticket(ticket_id).
func (t *TicketAPI) CloseTicket(args stubs.TicketAPICloseTicketArgs) (pyval.Value, error) {
	ticketID := args.TicketID.V
	tk, errDict, err := t.foundTicket(ticketID)
	if err != nil || errDict != nil {
		return errDict, err
	}
	status, err := pyval.GetItem(tk, pyval.Str("status"))
	if err != nil {
		return nil, err
	}
	if pyval.Equal(status, pyval.Str("Closed")) {
		return oneKey("error", pyval.Str(fmt.Sprintf("Ticket with ID %s is already closed.", pyval.StrOf(ticketID)))), nil
	}
	if err := pyval.SetItem(tk, pyval.Str("status"), pyval.Str("Closed")); err != nil {
		return nil, err
	}
	return oneKey("status", pyval.Str(fmt.Sprintf("Ticket %s has been closed successfully.", pyval.StrOf(ticketID)))), nil
}

// ResolveTicket is upstream's resolve_ticket(ticket_id, resolution).
func (t *TicketAPI) ResolveTicket(args stubs.TicketAPIResolveTicketArgs) (pyval.Value, error) {
	ticketID, resolution := args.TicketID.V, args.Resolution.V
	tk, errDict, err := t.foundTicket(ticketID)
	if err != nil || errDict != nil {
		return errDict, err
	}
	status, err := pyval.GetItem(tk, pyval.Str("status"))
	if err != nil {
		return nil, err
	}
	if pyval.Equal(status, pyval.Str("Resolved")) {
		return oneKey("error", pyval.Str(fmt.Sprintf("Ticket with ID %s is already resolved.", pyval.StrOf(ticketID)))), nil
	}
	if err := pyval.SetItem(tk, pyval.Str("status"), pyval.Str("Resolved")); err != nil {
		return nil, err
	}
	if err := pyval.SetItem(tk, pyval.Str("resolution"), resolution); err != nil {
		return nil, err
	}
	return oneKey("status", pyval.Str(fmt.Sprintf("Ticket %s has been resolved successfully.", pyval.StrOf(ticketID)))), nil
}

// EditTicket is upstream's edit_ticket(ticket_id, updates). Invalid field
// names are listed in CPython's set iteration order (PYTHONHASHSEED=0),
// which cpythonSetDifference reproduces.
func (t *TicketAPI) EditTicket(args stubs.TicketAPIEditTicketArgs) (pyval.Value, error) {
	ticketID := args.TicketID.V
	tk, errDict, err := t.foundTicket(ticketID)
	if err != nil || errDict != nil {
		return errDict, err
	}
	keys, err := args.Updates.Keys()
	if err != nil {
		return nil, err
	}
	valid := []pyval.Value{pyval.Str("title"), pyval.Str("description"), pyval.Str("status"), pyval.Str("priority")}
	invalid := cpythonSetDifference(keys, valid)
	if len(invalid) > 0 {
		joined, err := pyval.Join(", ", invalid)
		if err != nil {
			return nil, err
		}
		return oneKey("error", pyval.Str("Invalid fields for update: "+joined)), nil
	}
	items, err := args.Updates.Items()
	if err != nil {
		return nil, err
	}
	for _, kv := range items {
		if kv.Value != pyval.None {
			if err := pyval.SetItem(tk, kv.Key, kv.Value); err != nil {
				return nil, err
			}
		}
	}
	return oneKey("status", pyval.Str(fmt.Sprintf("Ticket %s has been updated successfully.", pyval.StrOf(ticketID)))), nil
}

// TicketLogin is upstream's ticket_login(username, password).
func (t *TicketAPI) TicketLogin(args stubs.TicketAPITicketLoginArgs) (pyval.Value, error) {
	username, password := args.Username.V, args.Password.V
	if pyval.Truthy(username) && pyval.Truthy(password) {
		t.currentUser = username
		return oneKey("success", pyval.Bool(true)), nil
	}
	return oneKey("success", pyval.Bool(false)), nil
}

// TicketGetLoginStatus is upstream's ticket_get_login_status().
func (t *TicketAPI) TicketGetLoginStatus() (pyval.Value, error) {
	return oneKey("login_status", pyval.Bool(pyval.Truthy(t.currentUser))), nil
}

// Logout is upstream's logout().
func (t *TicketAPI) Logout() (pyval.Value, error) {
	if pyval.Truthy(t.currentUser) {
		t.currentUser = pyval.None
		return oneKey("success", pyval.Bool(true)), nil
	}
	return oneKey("success", pyval.Bool(false)), nil
}

// GetUserTickets is upstream's get_user_tickets(status=None): a list (of
// one error dict when nobody is logged in).
func (t *TicketAPI) GetUserTickets(args stubs.TicketAPIGetUserTicketsArgs) (pyval.Value, error) {
	status := args.Status.V
	if !pyval.Truthy(t.currentUser) {
		return pyval.NewList(oneKey("error", pyval.Str("User not authenticated. Please log in to view tickets."))), nil
	}
	items, err := pyval.ListOf(t.ticketQueue)
	if err != nil {
		return nil, err
	}
	var mine []pyval.Value
	for _, tk := range items {
		by, err := pyval.GetItem(tk, pyval.Str("created_by"))
		if err != nil {
			return nil, err
		}
		if pyval.Equal(by, t.currentUser) {
			mine = append(mine, tk)
		}
	}
	if pyval.Truthy(status) {
		var filtered []pyval.Value
		for _, tk := range mine {
			st, err := pyval.GetItem(tk, pyval.Str("status"))
			if err != nil {
				return nil, err
			}
			a, err := strLower(st)
			if err != nil {
				return nil, err
			}
			b, err := strLower(status)
			if err != nil {
				return nil, err
			}
			if a == b {
				filtered = append(filtered, tk)
			}
		}
		mine = filtered
	}
	return pyval.NewList(mine...), nil
}

func classTicketAPI() Class {
	return Class{
		Name:    "TicketAPI",
		Module:  "ticket_api",
		New:     func(env *Env) Instance { return NewTicketAPI(env) },
		Methods: stubs.TicketAPIMethods,
	}
}

// ---- CPython set iteration order (PYTHONHASHSEED=0) ----

// cpythonHash is hash(v) under PYTHONHASHSEED=0 for str and int keys; ok
// is false for other types.
func cpythonHash(v pyval.Value) (int64, bool) {
	var h int64
	switch x := v.(type) {
	case pyval.Str:
		h = cpythonStrHash(string(x))
	case pyval.Int:
		h = cpythonIntHash(int64(x))
	case pyval.Bool:
		if x {
			h = 1
		}
	default:
		return 0, false
	}
	return h, true
}

func cpythonIntHash(n int64) int64 {
	const mod = (1 << 61) - 1
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	h := int64(u % mod)
	if neg {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h
}

// cpythonStrHash is CPython's str hash: siphash13 with a zero key over the
// string's canonical storage (latin-1, UCS-2 or UCS-4 code units).
func cpythonStrHash(s string) int64 {
	if s == "" {
		return 0
	}
	maxR := rune(0)
	var runes []rune
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 && s[i] == 0xED && i+2 < len(s) {
			r = rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			w = 3
		}
		runes = append(runes, r)
		if r > maxR {
			maxR = r
		}
		i += w
	}
	var data []byte
	switch {
	case maxR < 0x100:
		for _, r := range runes {
			data = append(data, byte(r))
		}
	case maxR < 0x10000:
		for _, r := range runes {
			data = binary.LittleEndian.AppendUint16(data, uint16(r))
		}
	default:
		for _, r := range runes {
			data = binary.LittleEndian.AppendUint32(data, uint32(r))
		}
	}
	h := int64(siphash13(0, 0, data))
	if h == -1 {
		h = -2
	}
	return h
}

func siphash13(k0, k1 uint64, src []byte) uint64 {
	b := uint64(len(src)) << 56
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v2 += v3
		v1 = bits.RotateLeft64(v1, 13) ^ v0
		v3 = bits.RotateLeft64(v3, 16) ^ v2
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v1
		v0 += v3
		v1 = bits.RotateLeft64(v1, 17) ^ v2
		v3 = bits.RotateLeft64(v3, 21) ^ v0
		v2 = bits.RotateLeft64(v2, 32)
	}
	for len(src) >= 8 {
		mi := binary.LittleEndian.Uint64(src)
		src = src[8:]
		v3 ^= mi
		round()
		v0 ^= mi
	}
	var t uint64
	for i := len(src) - 1; i >= 0; i-- {
		t = t<<8 | uint64(src[i])
	}
	b |= t
	v3 ^= b
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	return (v0 ^ v1) ^ (v2 ^ v3)
}

// cpySet is a minimal model of CPython's set hash table (setobject.c):
// open addressing, 9 linear probes then perturbation, resize at 60% fill.
type cpySet struct {
	keys   []pyval.Value
	hashes []int64
	used   []bool
	mask   uint64
	fill   int
}

const cpyLinearProbes = 9

func newCpySet() *cpySet {
	return &cpySet{keys: make([]pyval.Value, 8), hashes: make([]int64, 8), used: make([]bool, 8), mask: 7}
}

func (s *cpySet) contains(k pyval.Value, h int64) bool {
	mask := s.mask
	i := uint64(h) & mask
	perturb := uint64(h)
	for {
		probes := 0
		if i+cpyLinearProbes <= mask {
			probes = cpyLinearProbes
		}
		for j := 0; j <= probes; j++ {
			e := i + uint64(j)
			if !s.used[e] {
				return false
			}
			if s.hashes[e] == h && pyval.Equal(s.keys[e], k) {
				return true
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

func (s *cpySet) add(k pyval.Value, h int64) {
	mask := s.mask
	i := uint64(h) & mask
	perturb := uint64(h)
	for {
		probes := 0
		if i+cpyLinearProbes <= mask {
			probes = cpyLinearProbes
		}
		for j := 0; j <= probes; j++ {
			e := i + uint64(j)
			if !s.used[e] {
				s.keys[e], s.hashes[e], s.used[e] = k, h, true
				s.fill++
				if uint64(s.fill)*5 >= mask*3 {
					minused := s.fill * 4
					if s.fill > 50000 {
						minused = s.fill * 2
					}
					s.resize(minused)
				}
				return
			}
			if s.hashes[e] == h && pyval.Equal(s.keys[e], k) {
				return
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

func (s *cpySet) resize(minused int) {
	size := uint64(8)
	for size <= uint64(minused) {
		size <<= 1
	}
	oldKeys, oldHashes, oldUsed := s.keys, s.hashes, s.used
	s.keys, s.hashes, s.used, s.mask = make([]pyval.Value, size), make([]int64, size), make([]bool, size), size-1
	for e := range oldKeys {
		if !oldUsed[e] {
			continue
		}
		h := oldHashes[e]
		i := uint64(h) & s.mask
		perturb := uint64(h)
	probe:
		for {
			if !s.used[i] {
				s.keys[i], s.hashes[i], s.used[i] = oldKeys[e], h, true
				break
			}
			if i+cpyLinearProbes <= s.mask {
				for j := uint64(1); j <= cpyLinearProbes; j++ {
					if !s.used[i+j] {
						s.keys[i+j], s.hashes[i+j], s.used[i+j] = oldKeys[e], h, true
						break probe
					}
				}
			}
			perturb >>= 5
			i = (i*5 + 1 + perturb) & s.mask
		}
	}
}

func (s *cpySet) items() []pyval.Value {
	var out []pyval.Value
	for e := range s.keys {
		if s.used[e] {
			out = append(out, s.keys[e])
		}
	}
	return out
}

// copy is set_copy (set_merge into an empty set): same-size tables are
// copied slot for slot, otherwise entries are re-inserted in slot order.
func (s *cpySet) copy() *cpySet {
	n := newCpySet()
	used := 0
	for _, u := range s.used {
		if u {
			used++
		}
	}
	if used == 0 {
		return n
	}
	if uint64(used)*5 >= n.mask*3 {
		n.resize(used * 2)
	}
	if n.mask == s.mask {
		copy(n.keys, s.keys)
		copy(n.hashes, s.hashes)
		copy(n.used, s.used)
		n.fill = used
		return n
	}
	for e := range s.keys {
		if s.used[e] {
			n.insertClean(s.keys[e], s.hashes[e])
		}
	}
	n.fill = used
	return n
}

// insertClean is set_insert_clean: place a key known to be absent.
func (s *cpySet) insertClean(k pyval.Value, h int64) {
	i := uint64(h) & s.mask
	perturb := uint64(h)
	for {
		if !s.used[i] {
			s.keys[i], s.hashes[i], s.used[i] = k, h, true
			return
		}
		if i+cpyLinearProbes <= s.mask {
			for j := uint64(1); j <= cpyLinearProbes; j++ {
				if !s.used[i+j] {
					s.keys[i+j], s.hashes[i+j], s.used[i+j] = k, h, true
					return
				}
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & s.mask
	}
}

// discard removes k (its slot becomes a dummy: iteration order of the
// remaining keys is unchanged).
func (s *cpySet) discard(k pyval.Value, h int64) {
	for e := range s.keys {
		if s.used[e] && s.hashes[e] == h && pyval.Equal(s.keys[e], k) {
			s.used[e] = false
			s.keys[e] = nil
			return
		}
	}
}

// cpythonSetDifference is list(set(keys) - set(other)) in CPython's
// iteration order (setobject.c's set_difference, both of its paths).
// Keys of types whose hash is not modelled keep their insertion order.
func cpythonSetDifference(keys, other []pyval.Value) []pyval.Value {
	modelled := true
	for _, k := range append(append([]pyval.Value(nil), keys...), other...) {
		if _, ok := cpythonHash(k); !ok {
			modelled = false
		}
	}
	if !modelled {
		var out []pyval.Value
		for _, k := range keys {
			in := false
			for _, o := range other {
				if pyval.Equal(k, o) {
					in = true
				}
			}
			dup := false
			for _, x := range out {
				if pyval.Equal(x, k) {
					dup = true
				}
			}
			if !in && !dup {
				out = append(out, k)
			}
		}
		return out
	}
	left := newCpySet()
	for _, k := range keys {
		h, _ := cpythonHash(k)
		left.add(k, h)
	}
	right := newCpySet()
	for _, k := range other {
		h, _ := cpythonHash(k)
		right.add(k, h)
	}
	if len(left.items())>>2 > len(right.items()) {
		// set_copy_and_difference: copy, then discard the common keys
		result := left.copy()
		for _, k := range right.items() {
			h, _ := cpythonHash(k)
			result.discard(k, h)
		}
		return result.items()
	}
	result := newCpySet()
	for _, k := range left.items() {
		h, _ := cpythonHash(k)
		if !right.contains(k, h) {
			result.add(k, h)
		}
	}
	return result.items()
}
