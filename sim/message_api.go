package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// message_api.py (class MessageAPI). Result and error strings are protocol
// constants reproduced from that file.

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyrandom"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// messageDefaultSeed is upstream's default random_seed for MessageAPI.
const messageDefaultSeed = 200191

// MessageAPI is upstream's MessageAPI. Message ids come from a private
// random.Random(random_seed) (CPython's Mersenne Twister via pyrandom).
type MessageAPI struct {
	random       *pyrandom.Rand
	generatedIDs pyval.Value // a set (or whatever the config supplied)
	userCount    pyval.Value
	userMap      pyval.Value
	inbox        pyval.Value
	messageCount pyval.Value
	currentUser  pyval.Value
}

// NewMessageAPI returns an instance as upstream's constructor leaves it.
func NewMessageAPI(*Env) *MessageAPI { return &MessageAPI{} }

// ClassName implements Instance.
func (*MessageAPI) ClassName() string { return "MessageAPI" }

// messageDefaults is messageDefaultState built once.
var messageDefaults = sync.OnceValue(messageDefaultState)

// messageDefaultState is a fresh copy of upstream's DEFAULT_STATE.
func messageDefaultState() map[string]pyval.Value {
	userMap := pyval.NewDict()
	userMap.SetStr("Alice", pyval.Str("USR001"))
	userMap.SetStr("Bob", pyval.Str("USR002"))
	userMap.SetStr("Catherine", pyval.Str("USR003"))
	userMap.SetStr("Daniel", pyval.Str("USR004"))
	msg := func(to, text string) *pyval.Dict {
		d := pyval.NewDict()
		d.SetStr(to, pyval.Str(text))
		return d
	}
	return map[string]pyval.Value{
		"generated_ids": pyval.NewSet(),
		"user_count":    pyval.Int(4),
		"user_map":      userMap,
		"inbox": pyval.NewList(
			msg("USR002", "My name is Alice. I want to connect."),
			msg("USR003", "Could you upload the file?"),
			msg("USR004", "Could you upload the file?"),
		),
		"message_count": pyval.Int(3),
		"current_user":  pyval.None,
	}
}

// LoadScenario is upstream's _load_scenario.
func (m *MessageAPI) LoadScenario(config *pyval.Dict, _ bool) error {
	seed, ok := config.GetStr("random_seed")
	if !ok {
		seed = pyval.Int(messageDefaultSeed)
	}
	r, err := newRandom(seed)
	if err != nil {
		return err
	}
	m.random = r
	// Built once and never modified: a default used is deep-copied, as
	// _load_scenario's deepcopy(DEFAULT_STATE) would give it.
	for _, a := range m.attrs(messageDefaults()) {
		if v, ok := config.GetStr(a.name); ok {
			*a.v = v
		} else {
			*a.v = pyval.DeepCopy(a.def)
		}
	}
	return nil
}

// attrs are the attributes _load_scenario assigns after the random
// generator, their defaults taken from def (DEFAULT_STATE).
func (m *MessageAPI) attrs(def map[string]pyval.Value) []attr {
	out := []attr{
		{name: "generated_ids", v: &m.generatedIDs},
		{name: "user_count", v: &m.userCount},
		{name: "user_map", v: &m.userMap},
		{name: "inbox", v: &m.inbox},
		{name: "message_count", v: &m.messageCount},
		{name: "current_user", v: &m.currentUser},
	}
	for i := range out {
		out[i].def = def[out[i].name]
	}
	return out
}

// State implements Instance.
func (m *MessageAPI) State() *pyval.Dict { return attrState(m.random != nil, m.attrs(nil)) }

// generateID is upstream's _generate_id: randint(10000, 99999) until the
// id is not in generated_ids, which then records it.
func (m *MessageAPI) generateID() (pyval.Value, error) {
	id := pyval.Int(m.random.RandInt(10000, 99999))
	for {
		in, err := pyval.Contains(m.generatedIDs, id)
		if err != nil {
			return nil, err
		}
		if !in {
			break
		}
		id = pyval.Int(m.random.RandInt(10000, 99999))
	}
	s, ok := m.generatedIDs.(*pyval.Set)
	if !ok {
		return nil, pyval.NoAttribute(m.generatedIDs, "add")
	}
	s.Add(id)
	return oneKey("new_id", id), nil
}

func (m *MessageAPI) notLoggedIn() pyval.Value {
	return errorDict("No user is currently logged in.")
}

// userMapDict returns user_map as a dict (AttributeError for method use otherwise).
func (m *MessageAPI) userMapDict(method string) (*pyval.Dict, error) {
	d, ok := m.userMap.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(m.userMap, method)
	}
	return d, nil
}

// inboxItems returns the inbox list items.
func (m *MessageAPI) inboxItems() ([]pyval.Value, error) {
	return pyval.ListOf(m.inbox)
}

// firstItem is `list(message.items())[0]`.
func firstItem(message pyval.Value) (pyval.Value, pyval.Value, error) {
	d, ok := message.(*pyval.Dict)
	if !ok {
		return nil, nil, pyval.NoAttribute(message, "items")
	}
	if d.Len() == 0 {
		return nil, nil, pyval.NewIndexError("list index out of range")
	}
	k, v := d.At(0)
	return k, v, nil
}

// ListUsers is upstream's list_users().
func (m *MessageAPI) ListUsers() (pyval.Value, error) {
	um, err := m.userMapDict("keys")
	if err != nil {
		return nil, err
	}
	return oneKey("user_list", pyval.NewList(um.Keys()...)), nil
}

// GetUserID is upstream's get_user_id(user).
func (m *MessageAPI) GetUserID(args stubs.MessageAPIGetUserIDArgs) (pyval.Value, error) {
	user := args.User.V
	if notIn, err := errorUnlessIn(m.userMap, user, fmt.Sprintf("User '%s' not found in the workspace.", pyval.StrOf(user))); notIn != nil || err != nil {
		return notIn, err
	}
	v, err := pyval.DictGet(m.userMap, user, pyval.None)
	if err != nil {
		return nil, err
	}
	return oneKey("user_id", v), nil
}

// MessageLogin is upstream's message_login(user_id).
func (m *MessageAPI) MessageLogin(args stubs.MessageAPIMessageLoginArgs) (pyval.Value, error) {
	userID := args.UserID.V
	um, err := m.userMapDict("values")
	if err != nil {
		return nil, err
	}
	in, _ := pyval.Contains(pyval.NewList(um.Values()...), userID)
	d := pyval.NewDict()
	if !in {
		d.SetStr("login_status", pyval.Bool(false))
		d.SetStr("message", pyval.Str(fmt.Sprintf("User ID '%s' not found.", pyval.StrOf(userID))))
		return d, nil
	}
	m.currentUser = userID
	d.SetStr("login_status", pyval.Bool(true))
	d.SetStr("message", pyval.Str(fmt.Sprintf("User '%s' logged in successfully.", pyval.StrOf(userID))))
	return d, nil
}

// MessageGetLoginStatus is upstream's message_get_login_status().
func (m *MessageAPI) MessageGetLoginStatus() (pyval.Value, error) {
	return oneKey("login_status", pyval.Bool(pyval.Truthy(m.currentUser))), nil
}

// SendMessage is upstream's send_message(receiver_id, message).
func (m *MessageAPI) SendMessage(args stubs.MessageAPISendMessageArgs) (pyval.Value, error) {
	receiverID, message := args.ReceiverID.V, args.Message.V
	if !pyval.Truthy(m.currentUser) {
		return m.notLoggedIn(), nil
	}
	um, err := m.userMapDict("values")
	if err != nil {
		return nil, err
	}
	in, _ := pyval.Contains(pyval.NewList(um.Values()...), receiverID)
	if !in {
		return errorDict(fmt.Sprintf("Receiver ID '%s' not found.", pyval.StrOf(receiverID))), nil
	}
	id, err := m.generateID()
	if err != nil {
		return nil, err
	}
	entry := pyval.NewDict()
	if err := pyval.SetItem(entry, receiverID, message); err != nil {
		return nil, err
	}
	if err := pyval.Append(m.inbox, entry); err != nil {
		return nil, err
	}
	if err := increment(&m.messageCount); err != nil {
		return nil, err
	}
	d := pyval.NewDict()
	d.SetStr("sent_status", pyval.Bool(true))
	d.SetStr("message_id", id)
	d.SetStr("message", pyval.Str(fmt.Sprintf("Message sent to '%s' successfully.", pyval.StrOf(receiverID))))
	return d, nil
}

// DeleteMessage is upstream's delete_message(receiver_id): it finds the
// latest message to the receiver but, like upstream's list.remove, deletes
// the first message equal to it.
func (m *MessageAPI) DeleteMessage(args stubs.MessageAPIDeleteMessageArgs) (pyval.Value, error) {
	receiverID := args.ReceiverID.V
	if !pyval.Truthy(m.currentUser) {
		return m.notLoggedIn(), nil
	}
	items, err := m.inboxItems()
	if err != nil {
		return nil, err
	}
	for i := len(items) - 1; i >= 0; i-- {
		receiver, _, err := firstItem(items[i])
		if err != nil {
			return nil, err
		}
		if pyval.Equal(receiver, receiverID) {
			if err := listRemove(m.inbox, items[i]); err != nil {
				return nil, err
			}
			d := pyval.NewDict()
			d.SetStr("deleted_status", pyval.Bool(true))
			d.SetStr("receiver_id", receiver)
			d.SetStr("message", pyval.Str(fmt.Sprintf("Receiver %s's latest message deleted successfully.", pyval.StrOf(receiverID))))
			return d, nil
		}
	}
	return errorDict(fmt.Sprintf("Receiver ID %s not found.", pyval.StrOf(receiverID))), nil
}

// sentMessages is what view_messages_sent and get_message_stats start
// with: the not-logged-in result when no user is logged in, else the
// (receiver, content) of every inbox message, in order.
func (m *MessageAPI) sentMessages() ([][2]pyval.Value, pyval.Value, error) {
	if !pyval.Truthy(m.currentUser) {
		return nil, m.notLoggedIn(), nil
	}
	items, err := m.inboxItems()
	if err != nil {
		return nil, nil, err
	}
	out := make([][2]pyval.Value, len(items))
	for i, msg := range items {
		receiver, content, err := firstItem(msg)
		if err != nil {
			return nil, nil, err
		}
		out[i] = [2]pyval.Value{receiver, content}
	}
	return out, nil, nil
}

// ViewMessagesSent is upstream's view_messages_sent().
func (m *MessageAPI) ViewMessagesSent() (pyval.Value, error) {
	msgs, notLogged, err := m.sentMessages()
	if notLogged != nil || err != nil {
		return notLogged, err
	}
	sent := pyval.NewDict()
	for _, rc := range msgs {
		receiver, content := rc[0], rc[1]
		if l, ok := sent.Get(receiver); ok {
			lst := l.(*pyval.List)
			lst.Items = append(lst.Items, content)
		} else {
			sent.Set(receiver, pyval.NewList(content))
		}
	}
	return oneKey("messages", sent), nil
}

// AddContact is upstream's add_contact(user_name).
func (m *MessageAPI) AddContact(args stubs.MessageAPIAddContactArgs) (pyval.Value, error) {
	userName := args.UserName.V
	in, err := pyval.Contains(m.userMap, userName)
	if err != nil {
		return nil, err
	}
	if in {
		return errorDict(fmt.Sprintf("User name '%s' already exists.", pyval.StrOf(userName))), nil
	}
	if err := increment(&m.userCount); err != nil {
		return nil, err
	}
	userID := pyval.Str("USR" + pyZfill(pyval.StrOf(m.userCount), 3))
	um, err := m.userMapDict("values")
	if err != nil {
		return nil, err
	}
	if exists, _ := pyval.Contains(pyval.NewList(um.Values()...), userID); exists {
		return errorDict(fmt.Sprintf("User ID '%s' already exists.", string(userID))), nil
	}
	um.Set(userName, userID)
	d := pyval.NewDict()
	d.SetStr("added_status", pyval.Bool(true))
	d.SetStr("user_id", userID)
	d.SetStr("message", pyval.Str(fmt.Sprintf("Contact '%s' added successfully.", pyval.StrOf(userName))))
	return d, nil
}

// pyZfill is str.zfill(width).
func pyZfill(s string, width int) string {
	n := pyval.StrLen(s)
	if n >= width {
		return s
	}
	pad := strings.Repeat("0", width-n)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + pad + s[1:]
	}
	return pad + s
}

// SearchMessages is upstream's search_messages(keyword).
func (m *MessageAPI) SearchMessages(args stubs.MessageAPISearchMessagesArgs) (pyval.Value, error) {
	if !pyval.Truthy(m.currentUser) {
		return m.notLoggedIn(), nil
	}
	kw, err := args.Keyword.Lower()
	if err != nil {
		return nil, err
	}
	items, err := m.inboxItems()
	if err != nil {
		return nil, err
	}
	var results []pyval.Value
	for _, msg := range items {
		receiver, content, err := firstItem(msg)
		if err != nil {
			return nil, err
		}
		in, err := lowerContains(content, kw)
		if err != nil {
			return nil, err
		}
		if in {
			r := pyval.NewDict()
			r.SetStr("receiver_id", receiver)
			r.SetStr("message", content)
			results = append(results, r)
		}
	}
	return oneKey("results", pyval.NewList(results...)), nil
}

// GetMessageStats is upstream's get_message_stats().
func (m *MessageAPI) GetMessageStats() (pyval.Value, error) {
	msgs, notLogged, err := m.sentMessages()
	if notLogged != nil || err != nil {
		return notLogged, err
	}
	contacts := pyval.NewSet()
	for _, rc := range msgs {
		contacts.Add(rc[0])
	}
	stats := pyval.NewDict()
	stats.SetStr("received_count", pyval.Int(len(msgs)))
	stats.SetStr("total_contacts", pyval.Int(contacts.Len()))
	return oneKey("stats", stats), nil
}

func classMessageAPI() Class {
	return Class{
		Name:    "MessageAPI",
		Module:  "message_api",
		New:     func(env *Env) Instance { return NewMessageAPI(env) },
		Methods: stubs.MessageAPIMethods,
	}
}
