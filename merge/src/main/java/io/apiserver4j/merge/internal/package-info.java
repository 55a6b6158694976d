/** The merge engine's walks and codecs; not API. */
package io.apiserver4j.merge.internal;
