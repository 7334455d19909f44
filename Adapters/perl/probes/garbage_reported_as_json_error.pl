#!/usr/bin/perl
# Claim: when the token endpoint answers a refresh with bytes that are not HTTP, LWP::UserAgent
# takes them for an HTTP/0.9 body ("200 Assumed OK") and the library reports only that the
# endpoint "gave invalid JSON" with status 200 (ServiceProvider.pm:240-252): nothing tells the
# application that the connection failed and a retry may succeed.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(oauth2 saved_token verdict);

my $server = ProbeServer->start(sub { "SSH-2.0-OpenSSH_9.6\r\n" });
my $oauth2 = oauth2($server->url, token_string => saved_token(age => 3700));
eval { $oauth2->get($server->url . '/resource') };
my $error = $@;
(my $shown = $error) =~ s/\n+/ | /g;
print "the refresh got bytes that are not HTTP: died with: $shown\n";
$server->stop;
verdict($error =~ /^Token endpoint gave invalid JSON/ && $error =~ /^Status: 200 Assumed OK$/m,
    'bytes that are not HTTP are reported as "Token endpoint gave invalid JSON" with "Status: 200 Assumed OK", not as a failed connection',
    'the library reported it otherwise');
