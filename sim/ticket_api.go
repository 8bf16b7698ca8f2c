package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// ticket_api.py (class TicketAPI). Result and error strings are protocol
// constants reproduced from that file.

import (
	"fmt"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
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

// attrs are the attributes _load_scenario assigns, with their defaults.
func (t *TicketAPI) attrs() []attr {
	return []attr{
		{"ticket_queue", &t.ticketQueue, pyval.NewList()},
		{"ticket_counter", &t.ticketCounter, pyval.Int(1)},
		{"current_user", &t.currentUser, pyval.None},
	}
}

// LoadScenario is upstream's _load_scenario.
func (t *TicketAPI) LoadScenario(config *pyval.Dict, _ bool) error {
	loadAttrs(config, t.attrs())
	return nil
}

// State implements Instance.
func (t *TicketAPI) State() *pyval.Dict { return attrState(t.ticketQueue != nil, t.attrs()) }

// CreateTicket is upstream's create_ticket(title, description="", priority=1).
// The returned dict is the queued ticket itself.
func (t *TicketAPI) CreateTicket(args stubs.TicketAPICreateTicketArgs) (pyval.Value, error) {
	title, description, priority := args.Title.V, args.Description.V, args.Priority.V
	if !pyval.Truthy(t.currentUser) {
		return errorDict("User not authenticated. Please log in to create a ticket."), nil
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
		return errorDict("Invalid priority. Priority must be between 1 and 5."), nil
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
	if err := increment(&t.ticketCounter); err != nil {
		return nil, err
	}
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
		return nil, errorDict(fmt.Sprintf("Ticket with ID %s not found.", pyval.StrOf(ticketID))), nil
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
	return t.setStatus(args.TicketID.V, "Closed", "closed", nil)
}

// ResolveTicket is upstream's resolve_ticket(ticket_id, resolution).
func (t *TicketAPI) ResolveTicket(args stubs.TicketAPIResolveTicketArgs) (pyval.Value, error) {
	return t.setStatus(args.TicketID.V, "Resolved", "resolved", args.Resolution.V)
}

// setStatus is the body close_ticket and resolve_ticket share: an error when
// the ticket is missing or already has status, else the status set (and,
// for resolve_ticket, the resolution: resolution non-nil) and the success
// message, verb naming the change.
func (t *TicketAPI) setStatus(ticketID pyval.Value, status, verb string, resolution pyval.Value) (pyval.Value, error) {
	tk, errDict, err := t.foundTicket(ticketID)
	if err != nil || errDict != nil {
		return errDict, err
	}
	cur, err := pyval.GetItem(tk, pyval.Str("status"))
	if err != nil {
		return nil, err
	}
	if pyval.Equal(cur, pyval.Str(status)) {
		return errorDict(fmt.Sprintf("Ticket with ID %s is already %s.", pyval.StrOf(ticketID), verb)), nil
	}
	if err := pyval.SetItem(tk, pyval.Str("status"), pyval.Str(status)); err != nil {
		return nil, err
	}
	if resolution != nil {
		if err := pyval.SetItem(tk, pyval.Str("resolution"), resolution); err != nil {
			return nil, err
		}
	}
	return oneKey("status", pyval.Str(fmt.Sprintf("Ticket %s has been %s successfully.", pyval.StrOf(ticketID), verb))), nil
}

// EditTicket is upstream's edit_ticket(ticket_id, updates). Invalid field
// names are listed in CPython's set iteration order (PYTHONHASHSEED=0),
// which pyval.SetDifference reproduces.
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
	invalid := pyval.SetDifference(keys, valid)
	if len(invalid) > 0 {
		joined, err := pyval.Join(", ", invalid)
		if err != nil {
			return nil, err
		}
		return errorDict("Invalid fields for update: " + joined), nil
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
		return pyval.NewList(errorDict("User not authenticated. Please log in to view tickets.")), nil
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
			b, err := args.Status.Lower()
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
