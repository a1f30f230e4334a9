package ui

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

// testPushTimeout bounds "Send a test push" as a whole.
const testPushTimeout = time.Minute

// channelsView is the Settings card of the phone push channels: one row per
// channel (what service, which searches, quiet hours, how its pushes are
// doing) with Send test and Remove, and Add, which opens channelForm. Reads of
// the database run on the UI goroutine (they are quick); the keyring and the
// services are reached from goroutines behind the activity.
type channelsView struct {
	u *UI

	// testedAt is when a test push to each channel went through (this run):
	// the channel's state does not count a test as a push.
	testedAt map[string]time.Time

	list     *fyne.Container // the rows
	empty    *widget.Label
	addBtn   *widget.Button
	activity *widget.Activity
	result   *widget.Label // what the last action did
	card     *widget.Card

	rows    map[string]*channelRow // by channel name, for tests
	working int
	form    *channelForm // the Add dialog while it is open
	outbox  model.OutboxSnapshot
}

// channelRow is one channel in the list.
type channelRow struct {
	title, detail, state *widget.Label
	test, remove         *widget.Button
	box                  fyne.CanvasObject
}

func newChannelsView(u *UI) *channelsView {
	v := &channelsView{u: u, rows: map[string]*channelRow{}}
	v.list = container.NewVBox()
	v.empty = quietWrappedLabel("No channels yet. Add one to get new listings on your phone: ntfy is free and needs no account; Telegram and Pushover work too.")
	v.addBtn = widget.NewButtonWithIcon("Add a channel", theme.ContentAddIcon(), v.openForm)
	v.activity = widget.NewActivity()
	v.activity.Hide()
	v.result = wrapped("")
	v.result.Hide()
	v.card = widget.NewCard("Phone push", "Alerts on your phone through ntfy, Telegram, Pushover and others",
		container.NewVBox(v.empty, v.list, container.NewHBox(v.addBtn, v.activity), v.result))
	v.load()
	return v
}

// quietWrappedLabel is a wrapped label in the quiet (secondary) style.
func quietWrappedLabel(text string) *widget.Label {
	l := wrapped(text)
	l.Importance = widget.LowImportance
	return l
}

// load reads the channels and shows them.
func (v *channelsView) load() {
	chans, err := v.u.b.Channels()
	if err != nil {
		slog.Warn("read push channels", "err", err)
		v.say(widget.DangerImportance, "Notifio could not read the push channels: "+err.Error())
		return
	}
	v.list.RemoveAll()
	v.rows = map[string]*channelRow{}
	for _, c := range chans {
		r := v.newRow(c)
		v.rows[c.Name] = r
		v.list.Add(r.box)
	}
	if len(chans) == 0 {
		v.empty.Show()
	} else {
		v.empty.Hide()
	}
	v.list.Refresh()
	v.u.settings.relayoutIfBuilt()
}

// outboxChanged reloads the list when the outbox changed (a push went out or
// failed) while Settings is on screen.
func (v *channelsView) outboxChanged(o model.OutboxSnapshot, showing bool) {
	if reflect.DeepEqual(o, v.outbox) {
		return
	}
	v.outbox = o
	if showing {
		v.load()
	}
}

func (v *channelsView) newRow(c model.ChannelState) *channelRow {
	r := &channelRow{}
	r.title = widget.NewLabelWithStyle(c.Name+" · "+words.ServiceWords(c.Service), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.detail = wrapped(words.ChannelDetail(c, v.searchNames(c.Searches)))
	imp, state := channelStateWords(c, v.testedAt[c.Name], v.u.now())
	r.state = wrapped(state)
	r.state.Importance = imp
	name := c.Name
	r.test = widget.NewButtonWithIcon("Send a test push", theme.MailSendIcon(), func() { v.sendTest(name) })
	r.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { v.confirmRemove(name) })
	// The buttons sit beside the name: a row per channel stays short.
	r.box = container.NewVBox(container.NewBorder(nil, nil, r.title, container.NewHBox(r.test, r.remove)),
		container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()), r.detail, r.state), widget.NewSeparator())
	return r
}

// searchNames are the names of the searches with these IDs, "" for one that
// was removed.
func (v *channelsView) searchNames(ids []string) []string {
	names := make([]string, len(ids))
	for i, id := range ids {
		if s, ok := v.u.searchSnap(id); ok {
			names[i] = s.Name
		}
	}
	return names
}

// channelStateWords says how a channel's pushes are doing (words.ChannelStateWords)
// and how loud that is. tested is when a test push went through, zero if none did.
func channelStateWords(c model.ChannelState, tested, now time.Time) (widget.Importance, string) {
	return channelImportance[words.ChannelConditionOf(c, tested)], words.ChannelStateWords(c, tested, now)
}

// channelImportance is how a channel's row shows each condition.
var channelImportance = map[words.ChannelCondition]widget.Importance{
	words.ChannelFailing:   widget.DangerImportance,
	words.ChannelRetrying:  widget.WarningImportance,
	words.ChannelQuiet:     widget.MediumImportance,
	words.ChannelDelivered: widget.SuccessImportance,
	words.ChannelTested:    widget.SuccessImportance,
	words.ChannelUntested:  widget.MediumImportance,
}

// say shows what the last action did.
func (v *channelsView) say(imp widget.Importance, text string) {
	v.result.Importance = imp
	showText(v.result, text)
	v.u.settings.relayoutIfBuilt()
}

// busy counts the channel actions under way and shows the activity meanwhile.
func (v *channelsView) busy(delta int) { countBusy(v.activity, &v.working, delta) }

// sendTest sends one test push to the channel in the background.
func (v *channelsView) sendTest(name string) {
	r := v.rows[name]
	if r != nil {
		r.test.Disable()
	}
	v.busy(1)
	v.say(widget.MediumImportance, "Sending a test push to "+name+"…")
	b := v.u.b
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), testPushTimeout)
		err := b.TestChannel(ctx, name)
		cancel()
		v.u.dispatch(func() { v.tested(name, err) })
	}()
}

// tested shows how the test push went.
func (v *channelsView) tested(name string, err error) {
	v.busy(-1)
	if r := v.rows[name]; r != nil {
		r.test.Enable()
	}
	if err == nil {
		if v.testedAt == nil {
			v.testedAt = map[string]time.Time{}
		}
		v.testedAt[name] = v.u.now()
		v.load()
		v.say(widget.SuccessImportance, "Test push sent to "+name+". Check your phone.")
		return
	}
	slog.Info("test push failed", "channel", name, "err", err)
	v.say(widget.DangerImportance, words.PushTestFailed(name, err).Words())
}

// confirmRemove asks before removing a channel.
func (v *channelsView) confirmRemove(name string) {
	msg := fmt.Sprintf("Stop sending pushes to “%s”? Its pushes that are not delivered yet are dropped, and its address is deleted from the keyring.", name)
	d := dialog.NewCustomWithoutButtons("Remove this channel?", wrapped(msg), v.u.win)
	remove := func() {
		d.Hide()
		v.remove(name)
	}
	removeBtn := widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), remove)
	removeBtn.Importance = widget.DangerImportance
	d.SetButtons([]fyne.CanvasObject{widget.NewButton("Keep it", d.Hide), removeBtn})
	d.Resize(fyne.NewSize(460, 0))
	v.u.showKeyed(d, remove, d.Hide, nil)
}

// remove removes the channel in the background (the keyring may be slow).
func (v *channelsView) remove(name string) {
	v.busy(1)
	v.say(widget.MediumImportance, "Removing "+name+"…")
	b := v.u.b
	go func() {
		warning, err := b.RemoveChannel(name)
		v.u.dispatch(func() {
			v.busy(-1)
			switch {
			case err != nil:
				slog.Warn("remove push channel", "channel", name, "err", err)
				v.say(widget.DangerImportance, "Notifio could not remove "+name+": "+err.Error())
			case warning != "":
				v.say(widget.WarningImportance, warning)
			default:
				v.say(widget.SuccessImportance, "Removed "+name+".")
			}
			v.load()
		})
	}()
}

// added shows the outcome of the Add dialog's save.
func (v *channelsView) added(name, warning string) {
	if warning != "" {
		v.say(widget.WarningImportance, "Added "+name+". "+warning)
	} else {
		v.say(widget.SuccessImportance, "Added "+name+". Send a test push to check that it reaches your phone.")
	}
	v.load()
}

// searchChoices are the searches the Add form offers, by name, with their IDs.
func (v *channelsView) searchChoices() (names []string, ids map[string]string) {
	ids = map[string]string{}
	for _, s := range v.u.snap.Searches {
		n := s.Name
		for i := 2; ids[n] != ""; i++ {
			n = fmt.Sprintf("%s (%d)", s.Name, i)
		}
		ids[n] = s.ID
		names = append(names, n)
	}
	slices.Sort(names)
	return names, ids
}
