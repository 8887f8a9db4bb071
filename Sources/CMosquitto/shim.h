#ifndef VIEWFINDER_CMOSQUITTO_SHIM_H
#define VIEWFINDER_CMOSQUITTO_SHIM_H
// Eclipse Mosquitto's MQTT client library (Debian's libmosquitto-dev): the client API and MQTT 5's codes.
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
