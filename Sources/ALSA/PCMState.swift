/// The state of a PCM stream (`snd_pcm_state_t`).
public enum PCMState: String, Sendable, Hashable {
    case open, setUp, prepared, running, xrun, draining, paused, suspended, disconnected, unknown
}
