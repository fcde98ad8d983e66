from django.db import migrations, models


class Migration(migrations.Migration):
    """PIN proof v2: public keys instead of a verifier; existing rows stay v1 until upgraded."""

    dependencies = [("extension", "0001_initial")]

    operations = [
        migrations.AddField(model_name="pinenrolment", name="version", field=models.PositiveSmallIntegerField(default=1)),
        migrations.AddField(model_name="pinenrolment", name="public_key", field=models.CharField(blank=True, default="", max_length=100)),
        migrations.AddField(model_name="pinenrolment", name="biometric_key", field=models.CharField(blank=True, default="", max_length=100)),
        migrations.AlterField(model_name="pinenrolment", name="verifier", field=models.CharField(blank=True, default="", max_length=64)),
    ]
