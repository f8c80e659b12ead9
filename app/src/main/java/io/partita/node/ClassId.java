package io.partita.node;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The class id of an {@link Identified} class under {@link Serialization#FACTORY_ID}, given once, on the class: the
 * class answers it as {@link Identified#getClassId()}, and its feature's {@link Feature#classes()} registers the class
 * under it. Each feature owns a block of ids ({@link Serialization} lists the blocks); a member refuses to start when
 * two classes claim one id, or a registered class has none.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ClassId {

    int value();
}
