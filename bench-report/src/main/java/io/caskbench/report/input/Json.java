package io.caskbench.report.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/** The one Jackson configuration the module uses, so every reader treats JMH's quirks the same way. */
public final class Json {

    /** Shared, thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule("jmh-doubles")
                    .addDeserializer(Double.class, new JmhDouble())
                    .addDeserializer(double.class, new JmhDouble()));

    private Json() {
    }

    /**
     * JMH writes non-finite numbers as the strings "NaN", "+INF" and "-INF" (a single iteration has no
     * error, for example); Jackson only knows some of those spellings.
     */
    private static final class JmhDouble extends JsonDeserializer<Double> {
        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                String text = p.getText().trim();
                switch (text) {
                    case "NaN":
                    case "":
                        return Double.NaN;
                    case "+INF":
                    case "INF":
                    case "Infinity":
                    case "+Infinity":
                        return Double.POSITIVE_INFINITY;
                    case "-INF":
                    case "-Infinity":
                        return Double.NEGATIVE_INFINITY;
                    default:
                        return Double.parseDouble(text);
                }
            }
            return p.getValueAsDouble();
        }

        @Override
        public Double getNullValue(DeserializationContext ctxt) {
            return Double.NaN;
        }
    }
}
