package notify

// NotifyChanges sets the hook called after every pass that tried to send
// something (RelayOptions.OnChange): the composition root builds the relays,
// gives them to the watcher as its Delivery, then gives the watcher's
// OutboxChanged to them, each a value when it is handed over. Call it before
// Run; it must not block.
func (r *Relay) NotifyChanges(fn func()) { r.change = fn }

// NotifyChanges is Relay.NotifyChanges for the push relay.
func (r *PushRelay) NotifyChanges(fn func()) { r.change = fn }
