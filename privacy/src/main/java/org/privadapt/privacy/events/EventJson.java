package org.privadapt.privacy.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of events, used in ledgers and release artifacts. Types: {@code gaussian} and {@code laplace}
 * ({@code noise_multiplier}), {@code poisson_sampled} ({@code q}, {@code event}), {@code poisson_sampled_rows} ({@code q}, {@code event}), {@code self_composed}
 * ({@code count}, {@code event}), {@code composed} ({@code events}), {@code noop}, {@code non_private}
 * ({@code reason}), {@code approximate_dp} ({@code epsilon}, {@code delta}), {@code worst_of} ({@code events}),
 * {@code repeat_and_select} ({@code mean}, {@code shape}, {@code event}). Reading rejects unknown types and missing fields.
 */
public final class EventJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private EventJson() {
    }

    public static ObjectNode write(DpEvent e) {
        ObjectNode n = F.objectNode();
        if (e instanceof GaussianEvent g) {
            n.put("type", "gaussian").put("noise_multiplier", g.noiseMultiplier());
        } else if (e instanceof LaplaceEvent l) {
            n.put("type", "laplace").put("noise_multiplier", l.noiseMultiplier());
        } else if (e instanceof PoissonSampledEvent p) {
            n.put("type", "poisson_sampled").put("q", p.samplingProbability());
            n.set("event", write(p.event()));
        } else if (e instanceof PoissonSampledRowsEvent p) {
            n.put("type", "poisson_sampled_rows").put("q", p.samplingProbability());
            n.set("event", write(p.event()));
        } else if (e instanceof SelfComposedEvent s) {
            n.put("type", "self_composed").put("count", s.count());
            n.set("event", write(s.event()));
        } else if (e instanceof ComposedEvent c) {
            n.put("type", "composed");
            ArrayNode a = n.putArray("events");
            for (DpEvent x : c.events()) {
                a.add(write(x));
            }
        } else if (e instanceof NoOpEvent) {
            n.put("type", "noop");
        } else if (e instanceof NonPrivateEvent np) {
            n.put("type", "non_private").put("reason", np.reason());
        } else if (e instanceof ApproximateDpEvent a) {
            n.put("type", "approximate_dp").put("epsilon", a.epsilon()).put("delta", a.delta());
        } else if (e instanceof WorstOfEvent w) {
            n.put("type", "worst_of");
            ArrayNode a = n.putArray("events");
            for (DpEvent x : w.parts()) {
                a.add(write(x));
            }
        } else if (e instanceof RepeatAndSelectEvent r) {
            n.put("type", "repeat_and_select").put("mean", r.mean()).put("shape", r.shape());
            n.set("event", write(r.event()));
        } else {
            throw new IllegalStateException("unknown event " + e);
        }
        return n;
    }

    /**
     * @throws IllegalArgumentException naming what is wrong
     */
    public static DpEvent read(JsonNode n) {
        if (n == null || !n.isObject() || !n.hasNonNull("type")) {
            throw new IllegalArgumentException("event is not an object with a 'type'");
        }
        String type = n.get("type").asText();
        switch (type) {
            case "gaussian":
                return new GaussianEvent(number(n, "noise_multiplier"));
            case "laplace":
                return new LaplaceEvent(number(n, "noise_multiplier"));
            case "poisson_sampled":
                return new PoissonSampledEvent(number(n, "q"), read(n.get("event")));
            case "poisson_sampled_rows":
                return new PoissonSampledRowsEvent(number(n, "q"), read(n.get("event")));
            case "self_composed":
                return new SelfComposedEvent(read(n.get("event")), (long) number(n, "count"));
            case "composed":
                return new ComposedEvent(readList(n, "composed"));
            case "worst_of":
                return new WorstOfEvent(readList(n, "worst_of"));
            case "repeat_and_select":
                return new RepeatAndSelectEvent(read(n.get("event")), number(n, "mean"), number(n, "shape"));
            case "noop":
                return new NoOpEvent();
            case "non_private":
                return new NonPrivateEvent(n.path("reason").asText(""));
            case "approximate_dp":
                return new ApproximateDpEvent(number(n, "epsilon"), number(n, "delta"));
            default:
                throw new IllegalArgumentException("unknown event type '" + type + "'");
        }
    }

    private static List<DpEvent> readList(JsonNode n, String type) {
        JsonNode a = n.get("events");
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException(type + " event without 'events' array");
        }
        List<DpEvent> list = new ArrayList<>();
        for (JsonNode x : a) {
            list.add(read(x));
        }
        return list;
    }

    private static double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException("event '" + n.path("type").asText() + "' lacks numeric field '" + field + "'");
        }
        return v.asDouble();
    }
}
