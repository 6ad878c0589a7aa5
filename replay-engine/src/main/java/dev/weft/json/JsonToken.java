package dev.weft.json;

/** The tokens {@link JsonTokenizer} produces. */
public enum JsonToken {
    START_OBJECT, END_OBJECT, START_ARRAY, END_ARRAY, FIELD_NAME,
    VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE, VALUE_NULL;

    /** A string, number, boolean or null. */
    public boolean isScalarValue() {
        return ordinal() >= VALUE_STRING.ordinal();
    }
}
